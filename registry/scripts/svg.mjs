// @ts-check
/**
 * A small, strict XML reader for SVG logos. It accepts only what every browser reads the same
 * way: UTF-8 text, well-formed XML 1.0 with namespaces, no DOCTYPE. Anything else is refused
 * with one message rather than guessed at, because the logo rules (logos.mjs) are an allowlist
 * over the tree this returns: if this reader and a browser could disagree on what a file means,
 * the allowlist would check a different drawing from the one the browser shows.
 *
 * It is not a general XML parser: no DTD, no entities beyond the five predefined ones, no
 * encodings beyond UTF-8, and a nesting limit no real logo comes near.
 */

export const SVG_NS = 'http://www.w3.org/2000/svg'
export const XLINK_NS = 'http://www.w3.org/1999/xlink'
export const XML_NS = 'http://www.w3.org/XML/1998/namespace'
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/'

/** Kept word for word from the registry's first SVG rule: contributors search for it. */
export const DOCTYPE_MESSAGE = 'SVG must not contain a DOCTYPE (entities can pull in other files)'

/** Deeper nesting is refused, which also bounds the recursion of whoever walks the tree. */
export const MAX_DEPTH = 256

/** Longer element and attribute names are refused, which keeps every message short. */
const MAX_NAME_LENGTH = 100

/**
 * An attribute after namespace processing. `namespace` is '' for an unprefixed attribute and
 * null for a prefix that no xmlns:prefix declares; `value` is entity-decoded and normalized
 * the way XML normalizes attribute values (tabs and newlines written literally become spaces).
 * @typedef {{ name: string, prefix: string, local: string, namespace: string | null, value: string, line: number, column: number }} XmlAttribute
 */
/**
 * An element. `namespace` is '' when no default namespace is in scope and null for an
 * undeclared prefix.
 * @typedef {{ type: 'element', name: string, prefix: string, local: string, namespace: string | null, attributes: XmlAttribute[], children: XmlNode[], line: number, column: number }} XmlElement
 */
/** Character data, with references decoded; adjacent text and CDATA sections are merged. @typedef {{ type: 'text', text: string, line: number, column: number }} XmlText */
/** A processing instruction (`<?target data?>`) other than the XML declaration. @typedef {{ type: 'pi', target: string, data: string, line: number, column: number }} XmlPi */
/** Comments are dropped: nothing renders or runs them. @typedef {XmlElement | XmlText | XmlPi} XmlNode */
/** @typedef {{ root: XmlElement, instructions: XmlPi[] }} XmlDocument */

/** Why a file was refused; its message is ready to show to a contributor. */
export class SvgReadError extends Error {}

/**
 * The document in `bytes`, or the one reason it cannot be read safely.
 * @param {Uint8Array} bytes
 * @returns {{ document: XmlDocument } | { error: string }}
 */
export function readSvg(bytes) {
  try {
    return { document: parseXml(decodeUtf8(bytes)) }
  } catch (error) {
    if (error instanceof SvgReadError) return { error: error.message }
    throw error
  }
}

// ---------------------------------------------------------------------------------------------
// Bytes to text. A browser picks the encoding from a byte order mark, then from the XML
// declaration; any encoding but UTF-8 could turn bytes this reader saw as harmless into markup
// (ISO-2022-JP escape sequences vanish when decoded), so only UTF-8 is read at all.

/**
 * @param {Uint8Array} bytes
 * @returns {string} the text without its UTF-8 byte order mark
 */
export function decodeUtf8(bytes) {
  const bom = foreignByteOrderMark(bytes)
  if (bom) throw new SvgReadError(`SVG must be encoded as UTF-8, but it starts with a ${bom} byte order mark`)
  const declared = declaredEncoding(bytes)
  if (declared !== null && declared.toLowerCase() !== 'utf-8') {
    throw new SvgReadError(`SVG must be encoded as UTF-8, but its XML declaration says encoding="${clip(declared)}"`)
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    const offset = firstInvalidUtf8(bytes)
    const line = bytes.subarray(0, offset).filter((byte) => byte === 0x0a).length + 1
    throw new SvgReadError(`SVG must be encoded as UTF-8, but byte ${offset} (line ${line}) is not valid UTF-8`)
  }
}

/** @param {Uint8Array} bytes @returns {string | null} */
function foreignByteOrderMark(bytes) {
  const starts = (/** @type {number[]} */ ...prefix) => prefix.every((byte, i) => bytes[i] === byte)
  if (starts(0x00, 0x00, 0xfe, 0xff) || starts(0xff, 0xfe, 0x00, 0x00)) return 'UTF-32'
  if (starts(0xfe, 0xff) || starts(0xff, 0xfe)) return 'UTF-16'
  return null
}

/**
 * The encoding an XML declaration at the very start names, read leniently from the raw bytes
 * (the declaration itself is ASCII in every encoding a browser would honour). A declaration
 * that is malformed is refused later by the parser.
 * @param {Uint8Array} bytes @returns {string | null}
 */
function declaredEncoding(bytes) {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  const head = String.fromCharCode(...bytes.subarray(start, start + 256))
  const declaration = /^<\?xml\s[^>]*/.exec(head)?.[0] ?? ''
  return /\sencoding\s*=\s*(["'])(.*?)\1/.exec(declaration)?.[2] ?? null
}

/**
 * Where the first invalid UTF-8 sequence starts: decode leniently and walk the bytes alongside;
 * the first U+FFFD that the bytes do not spell out (EF BF BD) is the place.
 * @param {Uint8Array} bytes
 */
function firstInvalidUtf8(bytes) {
  let offset = 0
  for (const char of new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)) {
    if (char === '\uFFFD' && !(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)) return offset
    const code = /** @type {number} */ (char.codePointAt(0))
    offset += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
  }
  return offset
}

/**
 * Whether the bytes are meant as an SVG: after any byte order mark and the prolog (declaration,
 * comments, processing instructions, DOCTYPE), the first element is called svg, with or without
 * a prefix. Deliberately lenient: it only picks the rules to apply, and every file it calls an
 * SVG is then read strictly by readSvg. A scan rather than one regular expression, so that no
 * input makes it backtrack for long.
 * @param {Uint8Array} bytes
 */
export function looksLikeSvg(bytes) {
  const text = decodeLoosely(bytes)
  let pos = 0
  for (;;) {
    while (/\s/.test(text.charAt(pos))) pos++
    let end
    if (text.startsWith('<?', pos)) end = after(text, '?>', pos + 2)
    else if (text.startsWith('<!--', pos)) end = after(text, '-->', pos + 4)
    else if (/^<!DOCTYPE/i.test(text.slice(pos, pos + 9))) end = afterDoctype(text, pos)
    else return /^<(?:[^\s/>:]+:)?svg[\s/>]/.test(text.slice(pos, pos + 512))
    if (end === -1) return false
    pos = end
  }
}

/** The offset just past the next `literal` from `from`, or -1. @param {string} text @param {string} literal @param {number} from */
function after(text, literal, from) {
  const at = text.indexOf(literal, from)
  return at === -1 ? -1 : at + literal.length
}

/** The offset just past a DOCTYPE and its internal subset, or -1. @param {string} text @param {number} from */
function afterDoctype(text, from) {
  const gt = text.indexOf('>', from)
  const bracket = text.indexOf('[', from)
  if (bracket === -1 || (gt !== -1 && gt < bracket)) return gt === -1 ? -1 : gt + 1
  const close = text.indexOf(']', bracket)
  return close === -1 ? -1 : after(text, '>', close)
}

/** Text for sniffing only: the encoding a byte order mark names, else UTF-8; never throws. @param {Uint8Array} bytes */
function decodeLoosely(bytes) {
  const bom = foreignByteOrderMark(bytes)
  if (bom === 'UTF-32') {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength - (bytes.byteLength % 4))
    const littleEndian = bytes[0] === 0xff
    let text = ''
    for (let i = 4; i < view.byteLength; i += 4) {
      const code = view.getUint32(i, littleEndian)
      text += code <= 0x10ffff ? String.fromCodePoint(code) : '\uFFFD'
    }
    return text
  }
  const label = bom === 'UTF-16' ? (bytes[0] === 0xfe ? 'utf-16be' : 'utf-16le') : 'utf-8'
  return new TextDecoder(label).decode(bytes)
}

// ---------------------------------------------------------------------------------------------
// Text to tree: XML 1.0 (fifth edition) well-formedness plus Namespaces in XML 1.0.

const NAME_START = 'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}'
const NAME_CHAR = `${NAME_START}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F\\u2040`
/** XML's Name production, read at a position (sticky). */
const NAME = new RegExp(`[:${NAME_START}][:${NAME_CHAR}]*`, 'uy')
/** A character XML 1.0 does not allow anywhere, not even as a reference. */
const ILLEGAL_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u
/** The only declaration accepted: version 1.0, optionally UTF-8 and standalone, in XML's order (XML's white space is only space, tab and newline, unlike \s). */
const DECLARATION = /<\?xml[ \t\n]+version[ \t\n]*=[ \t\n]*(["'])1\.0\1(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(["'])[Uu][Tt][Ff]-8\2)?(?:[ \t\n]+standalone[ \t\n]*=[ \t\n]*(["'])(?:yes|no)\3)?[ \t\n]*\?>/y
const PREDEFINED_ENTITIES = /** @type {Record<string, string>} */ ({ lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' })
/** `&name;`, `&#decimal;` or `&#xhex;`, read at a position (sticky). */
const REFERENCE = /&(?:#x([0-9A-Fa-f]+)|#([0-9]+)|([^\s&;<>"']+));/y

/**
 * @param {string} source the decoded text, without its byte order mark
 * @returns {XmlDocument}
 */
export function parseXml(source) {
  return new XmlParser(source).document()
}

/** @typedef {{ element: XmlElement, scope: Map<string, string> }} OpenElement */

class XmlParser {
  /** @param {string} source */
  constructor(source) {
    // XML reads every CR LF and lone CR as LF before anything else.
    this.text = source.replace(/\r\n?/g, '\n')
    this.pos = 0
    /** Offsets where each line starts, for messages. */
    this.lineStarts = [0]
    for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) this.lineStarts.push(i + 1)
  }

  /** @returns {XmlDocument} */
  document() {
    const illegal = ILLEGAL_CHAR.exec(this.text)
    if (illegal) {
      const code = /** @type {number} */ (illegal[0].codePointAt(0))
      this.fail(`the character U+${code.toString(16).toUpperCase().padStart(4, '0')} is not allowed in XML`, illegal.index)
    }
    this.declaration()
    /** @type {XmlPi[]} */
    const instructions = []
    this.misc(instructions)
    if (!this.text.startsWith('<', this.pos) || !this.nameAhead(this.pos + 1)) {
      this.fail(this.pos < this.text.length ? 'expected the <svg> element here' : 'the file has no <svg> element')
    }
    const root = this.elementTree()
    this.misc(instructions)
    if (this.pos < this.text.length) {
      this.fail(
        this.text.startsWith('<', this.pos) && this.nameAhead(this.pos + 1)
          ? 'a second root element; everything must be inside the one <svg> element'
          : 'content after the end of the <svg> element',
      )
    }
    return { root, instructions }
  }

  // --- positions and errors ---

  /** @param {number} offset @returns {{ line: number, column: number }} */
  locate(offset) {
    let low = 0
    let high = this.lineStarts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (/** @type {number} */ (this.lineStarts[middle]) <= offset) low = middle
      else high = middle - 1
    }
    return { line: low + 1, column: offset - /** @type {number} */ (this.lineStarts[low]) + 1 }
  }

  /**
   * @param {string} message @param {number} [at]
   * @returns {never}
   */
  fail(message, at = this.pos) {
    const { line, column } = this.locate(Math.min(at, this.text.length))
    throw new SvgReadError(`SVG is not well-formed XML at line ${line}, column ${column}: ${message}`)
  }

  /** @param {string} literal */
  startsWith(literal) {
    return this.text.startsWith(literal, this.pos)
  }

  /** Skips XML whitespace; whether there was any. */
  skipSpace() {
    const start = this.pos
    while (this.pos < this.text.length && ' \t\n'.includes(/** @type {string} */ (this.text[this.pos]))) this.pos++
    return this.pos > start
  }

  /** @param {number} at */
  nameAhead(at) {
    NAME.lastIndex = at
    return NAME.test(this.text)
  }

  /** @param {string} what for the message, e.g. 'element' @returns {string} */
  name(what) {
    NAME.lastIndex = this.pos
    const match = NAME.exec(this.text)
    if (!match) this.fail(`expected ${what} name`)
    const name = match[0]
    if (name.length > MAX_NAME_LENGTH) this.fail(`${what} names are limited to ${MAX_NAME_LENGTH} characters (${name.slice(0, 20)}...)`)
    // Namespaces in XML: a name has at most one colon, with something on both sides.
    const colon = name.indexOf(':')
    if (colon !== -1 && (colon === 0 || colon === name.length - 1 || name.includes(':', colon + 1))) {
      this.fail(`"${name}" is not a valid ${what} name (at most one colon, between a prefix and a name)`)
    }
    this.pos += name.length
    return name
  }

  // --- prolog and epilog ---

  /** The XML declaration, which may only stand at the very start. */
  declaration() {
    if (!/^<\?xml[ \t\n?]/.test(this.text)) return
    DECLARATION.lastIndex = 0
    const match = DECLARATION.exec(this.text)
    if (!match) this.fail('the XML declaration is malformed; write <?xml version="1.0" encoding="UTF-8"?> or leave it out')
    this.pos = match[0].length
  }

  /**
   * Whitespace, comments and processing instructions around the root element.
   * @param {XmlPi[]} instructions
   */
  misc(instructions) {
    for (;;) {
      this.skipSpace()
      if (this.startsWith('<!--')) this.comment()
      else if (this.startsWith('<?')) instructions.push(this.instruction())
      else if (this.startsWith('<!')) this.declarationMarkup()
      else return
    }
  }

  /** `<!` that is neither a comment nor CDATA: a DOCTYPE, or a DTD declaration out of place. */
  declarationMarkup() {
    if (/^<!(?:DOCTYPE|ENTITY)/i.test(this.text.slice(this.pos, this.pos + 9))) throw new SvgReadError(DOCTYPE_MESSAGE)
    this.fail('unexpected "<!"; only comments (<!-- -->) and CDATA sections are allowed')
  }

  comment() {
    const end = this.text.indexOf('--', this.pos + 4)
    if (end === -1) this.fail('a comment is never closed with -->')
    if (this.text[end + 2] !== '>') this.fail('"--" is not allowed inside a comment', end)
    this.pos = end + 3
  }

  /** @returns {XmlPi} */
  instruction() {
    const start = this.pos
    this.pos += 2
    const target = this.name('processing instruction')
    if (target.toLowerCase() === 'xml') this.fail('an XML declaration must be written <?xml ...?> and stand at the very start of the file', start)
    if (target.includes(':')) this.fail(`a processing instruction target must not contain a colon (${target})`, start)
    const end = this.text.indexOf('?>', this.pos)
    if (end === -1) this.fail(`the processing instruction <?${target} is never closed with ?>`, start)
    if (end > this.pos && !this.skipSpace()) this.fail(`expected a space after <?${target}`)
    const data = this.text.slice(this.pos, end)
    this.pos = end + 2
    return { type: 'pi', target, data, ...this.locate(start) }
  }

  // --- elements ---

  /**
   * The root element and everything in it. Iterative, with an explicit stack, so that deep
   * nesting yields a message rather than a stack overflow.
   * @returns {XmlElement}
   */
  elementTree() {
    const rootScope = new Map([['xml', XML_NS]])
    const first = this.startTag(rootScope)
    if (first.selfClosing) return first.open.element
    /** @type {OpenElement[]} */
    const stack = [first.open]
    while (stack.length) {
      const open = /** @type {OpenElement} */ (stack[stack.length - 1])
      const { children } = open.element
      if (this.pos >= this.text.length) {
        this.fail(`the element <${open.element.name}> opened at line ${open.element.line} is never closed`)
      } else if (this.startsWith('</')) {
        this.endTag(open.element)
        stack.pop()
      } else if (this.startsWith('<!--')) {
        this.comment()
      } else if (this.startsWith('<![CDATA[')) {
        this.cdata(children)
      } else if (this.startsWith('<?')) {
        children.push(this.instruction())
      } else if (this.startsWith('<!')) {
        this.declarationMarkup()
      } else if (this.startsWith('<')) {
        if (stack.length >= MAX_DEPTH) this.fail(`elements are nested more than ${MAX_DEPTH} deep`)
        const child = this.startTag(open.scope)
        children.push(child.open.element)
        if (!child.selfClosing) stack.push(child.open)
      } else {
        this.charData(children)
      }
    }
    return first.open.element
  }

  /**
   * `<name attributes>` or `<name attributes/>`, with the namespaces it declares applied.
   * @param {Map<string, string>} parentScope
   * @returns {{ open: OpenElement, selfClosing: boolean }}
   */
  startTag(parentScope) {
    const start = this.pos
    this.pos++
    const name = this.name('element')
    /** @type {Array<{ name: string, value: string, at: number }>} */
    const raw = []
    const seen = new Set()
    let selfClosing = false
    for (;;) {
      const spaced = this.skipSpace()
      if (this.startsWith('/>')) {
        selfClosing = true
        this.pos += 2
        break
      }
      if (this.startsWith('>')) {
        this.pos++
        break
      }
      if (this.pos >= this.text.length) this.fail(`the start tag <${name}> is never closed with >`, start)
      if (!spaced) this.fail(`expected a space, > or /> in the start tag <${name}>`)
      const at = this.pos
      const attribute = this.name('attribute')
      if (seen.has(attribute)) this.fail(`the attribute ${attribute} appears twice in <${name}>`, at)
      seen.add(attribute)
      raw.push({ name: attribute, value: this.attributeValue(attribute), at })
    }
    const scope = this.declareNamespaces(parentScope, raw)
    const element = this.resolveElement(name, scope, start)
    element.attributes = raw.map((attribute) => this.resolveAttribute(attribute, scope))
    this.checkExpandedNames(element, raw)
    return { open: { element, scope }, selfClosing }
  }

  /** `= "value"` after an attribute name; the value decoded and normalized. @param {string} attribute */
  attributeValue(attribute) {
    this.skipSpace()
    if (!this.startsWith('=')) this.fail(`the attribute ${attribute} has no value (write ${attribute}="...")`)
    this.pos++
    this.skipSpace()
    const quote = this.text[this.pos]
    if (quote !== '"' && quote !== "'") this.fail(`the value of ${attribute} must be in quotes`)
    const start = this.pos + 1
    const end = this.text.indexOf(quote, start)
    if (end === -1) this.fail(`the value of ${attribute} is never closed with ${quote}`)
    const lt = this.text.indexOf('<', start)
    if (lt !== -1 && lt < end) this.fail(`"<" is not allowed in an attribute value (write &lt;)`, lt)
    this.pos = end + 1
    // Attribute-value normalization: a tab or newline written literally is read as a space;
    // one written as a character reference is kept, so normalize before decoding references.
    return this.decodeReferences(this.text.slice(start, end).replace(/[\t\n]/g, ' '), start)
  }

  /** `</name>`, which must close the innermost open element. @param {XmlElement} element */
  endTag(element) {
    const start = this.pos
    this.pos += 2
    const name = this.name('element')
    this.skipSpace()
    if (!this.startsWith('>')) this.fail(`the end tag </${name}> is not closed with >`)
    this.pos++
    if (name !== element.name) {
      this.fail(`the end tag </${name}> does not match the start tag <${element.name}> at line ${element.line}`, start)
    }
  }

  /** `<![CDATA[...]]>`: text taken literally. @param {XmlNode[]} children */
  cdata(children) {
    const start = this.pos
    const end = this.text.indexOf(']]>', start + 9)
    if (end === -1) this.fail('a CDATA section is never closed with ]]>')
    this.pos = end + 3
    this.appendText(children, this.text.slice(start + 9, end), start)
  }

  /** Text up to the next markup, with references decoded. @param {XmlNode[]} children */
  charData(children) {
    const start = this.pos
    const lt = this.text.indexOf('<', start)
    const end = lt === -1 ? this.text.length : lt
    const raw = this.text.slice(start, end)
    const cdataEnd = raw.indexOf(']]>')
    if (cdataEnd !== -1) this.fail('"]]>" is not allowed in text (write ]]&gt;)', start + cdataEnd)
    this.pos = end
    this.appendText(children, this.decodeReferences(raw, start), start)
  }

  /** @param {XmlNode[]} children @param {string} text @param {number} start */
  appendText(children, text, start) {
    const last = children[children.length - 1]
    if (last?.type === 'text') last.text += text
    else children.push({ type: 'text', text, ...this.locate(start) })
  }

  /**
   * Decodes `&lt;`-style and numeric references; any other `&` is an error, since without a
   * DTD no other entity exists.
   * @param {string} raw @param {number} offset where raw starts in the text, for messages
   */
  decodeReferences(raw, offset) {
    let out = ''
    let from = 0
    for (let amp = raw.indexOf('&'); amp !== -1; amp = raw.indexOf('&', from)) {
      out += raw.slice(from, amp)
      REFERENCE.lastIndex = amp
      const match = REFERENCE.exec(raw)
      if (!match) this.fail('"&" must start a reference such as &amp; (write a lone & as &amp;)', offset + amp)
      const [reference, hex, decimal, entity] = match
      if (entity !== undefined) {
        const value = PREDEFINED_ENTITIES[entity]
        if (value === undefined) this.fail(`the entity ${clip(reference)} is not defined (only &lt; &gt; &amp; &apos; &quot; exist without a DTD)`, offset + amp)
        out += value
      } else {
        const digits = /** @type {string} */ (hex ?? decimal)
        const code = digits.length > 8 ? Infinity : parseInt(digits, hex !== undefined ? 16 : 10)
        if (!isXmlChar(code)) this.fail(`the character reference ${clip(reference)} is not a character XML allows`, offset + amp)
        out += String.fromCodePoint(code)
      }
      from = amp + reference.length
    }
    return out + raw.slice(from)
  }

  // --- namespaces ---

  /**
   * The scope of an element: its parent's bindings plus its own xmlns and xmlns:prefix
   * attributes, checked against the constraints of Namespaces in XML.
   * @param {Map<string, string>} parentScope @param {Array<{ name: string, value: string, at: number }>} raw
   */
  declareNamespaces(parentScope, raw) {
    const declarations = raw.filter(({ name }) => name === 'xmlns' || name.startsWith('xmlns:'))
    if (!declarations.length) return parentScope
    const scope = new Map(parentScope)
    for (const { name, value, at } of declarations) {
      const prefix = name === 'xmlns' ? '' : name.slice(6)
      if (prefix === 'xmlns') this.fail('the prefix xmlns must not be declared', at)
      if ((prefix === 'xml') !== (value === XML_NS)) this.fail(`the prefix xml is bound to ${XML_NS} and nothing else is`, at)
      if (value === XMLNS_NS) this.fail(`${XMLNS_NS} must not be declared`, at)
      if (prefix && value === '') this.fail(`the prefix ${prefix} must not be undeclared with an empty value`, at)
      scope.set(prefix, value)
    }
    return scope
  }

  /** @param {string} name @param {Map<string, string>} scope @param {number} start @returns {XmlElement} */
  resolveElement(name, scope, start) {
    const [prefix, local] = splitName(name)
    if (prefix === 'xmlns') this.fail(`an element must not use the prefix xmlns (<${name}>)`, start)
    const namespace = prefix ? (scope.get(prefix) ?? null) : (scope.get('') ?? '')
    return { type: 'element', name, prefix, local, namespace, attributes: [], children: [], ...this.locate(start) }
  }

  /**
   * @param {{ name: string, value: string, at: number }} attribute @param {Map<string, string>} scope
   * @returns {XmlAttribute}
   */
  resolveAttribute({ name, value, at }, scope) {
    const [prefix, local] = splitName(name)
    // Unprefixed attributes are in no namespace; the default namespace does not apply to them.
    const namespace = name === 'xmlns' || prefix === 'xmlns' ? XMLNS_NS : prefix ? (scope.get(prefix) ?? null) : ''
    return { name, prefix, local, namespace, value, ...this.locate(at) }
  }

  /**
   * Two attributes may not have the same namespace and local name, even under different
   * prefixes (`a:href` and `b:href` both bound to XLink).
   * @param {XmlElement} element @param {Array<{ at: number }>} raw
   */
  checkExpandedNames(element, raw) {
    const seen = new Set()
    element.attributes.forEach((attribute, i) => {
      if (!attribute.prefix || attribute.namespace === null) return
      const key = `${attribute.namespace} ${attribute.local}`
      if (seen.has(key)) this.fail(`two attributes of <${element.name}> name the same ${attribute.local} in ${attribute.namespace}`, raw[i]?.at)
      seen.add(key)
    })
  }
}

/** `prefix:local` → ['prefix', 'local']; `local` → ['', 'local']. @param {string} name @returns {[string, string]} */
function splitName(name) {
  const colon = name.indexOf(':')
  return colon === -1 ? ['', name] : [name.slice(0, colon), name.slice(colon + 1)]
}

/** At most 30 characters of something the file wrote, for a message. @param {string} text */
function clip(text) {
  return text.length > 30 ? `${text.slice(0, 27)}...` : text
}

/** XML 1.0's Char production. @param {number} code */
function isXmlChar(code) {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff)
}
