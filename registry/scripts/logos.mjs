// @ts-check
/**
 * The rules of one logo file: its type read from the bytes, its size, PNG dimensions, SVG content
 * and, for token logos, its name.
 */
import { isAddress, toChecksumAddress } from './keccak.mjs'
import { Report } from './problems.mjs'
import { looksLikeSvg, readSvg, SVG_NS, XLINK_NS, XML_NS, XMLNS_NS } from './svg.mjs'

/** @typedef {import('./problems.mjs').Problem} Problem */

/** Largest logo file, in bytes (100 KB). */
export const MAX_LOGO_BYTES = 102400

/** Width and height of every PNG logo, in pixels. */
export const PNG_LOGO_SIZE = 256

/**
 * What the bytes are, whatever the file is called.
 * @param {Uint8Array} bytes
 * @returns {'png' | 'svg' | null}
 */
function sniffLogoType(bytes) {
  const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) return 'png'
  // Only picks the rules: every file called an SVG here is then read strictly by checkSvg.
  return looksLikeSvg(bytes) ? 'svg' : null
}

/**
 * Every rule of one logo file: type from the bytes, file size, PNG dimensions, SVG content and,
 * for token logos, the file name.
 * @param {Uint8Array} bytes the file's content
 * @param {string} fileName its path, used in the problems and for the name rules
 * @param {{ kind: 'tokens' | 'tags' }} options which folder of logos/ the file sits in
 * @returns {Problem[]}
 */
export function checkLogo(bytes, fileName, { kind }) {
  const report = new Report(fileName)
  const name = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1)
  const dot = name.lastIndexOf('.')
  const extension = dot > 0 ? name.slice(dot) : ''
  if (bytes.length > MAX_LOGO_BYTES) report.add([], `${bytes.length} bytes, the limit is ${MAX_LOGO_BYTES}`)
  if (kind === 'tokens') checkTokenLogoName(report, dot > 0 ? name.slice(0, dot) : name, extension)

  const type = sniffLogoType(bytes)
  if (!type) {
    report.add([], 'is neither a PNG nor an SVG (the type is read from the bytes, not from the extension)')
    return report.problems
  }
  // The explorer serves a logo with the content type of its extension, so the two must agree.
  if (extension !== `.${type}`) report.add([], `the bytes are ${type.toUpperCase()} but the file is named ${extension || 'without an extension'}; name it .${type}`)
  if (type === 'png') checkPng(report, bytes)
  else checkSvg(report, bytes)
  return report.problems
}

/** @param {Report} report @param {string} stem the name without extension @param {string} extension */
function checkTokenLogoName(report, stem, extension) {
  if (isAddress(stem) && stem === toChecksumAddress(stem) && (extension === '.png' || extension === '.svg')) return
  const expected = isAddress(stem) ? ` (expected ${toChecksumAddress(stem)}${extension === '.svg' ? '.svg' : '.png'})` : ''
  report.add([], `logo file must be named after the checksummed address${expected}`)
}

/**
 * Width and height come from the IHDR chunk, which the PNG format puts first, right after the
 * 8-byte signature: length (4), "IHDR" (4), width (4), height (4), big-endian.
 * @param {Report} report @param {Uint8Array} bytes
 */
function checkPng(report, bytes) {
  const chunkType = String.fromCharCode(...bytes.subarray(12, 16))
  if (bytes.length < 24 || chunkType !== 'IHDR') {
    report.add([], 'PNG has no IHDR chunk after its signature; the file is damaged')
    return
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const width = view.getUint32(16)
  const height = view.getUint32(20)
  if (width !== PNG_LOGO_SIZE || height !== PNG_LOGO_SIZE) {
    report.add([], `PNG is ${width}x${height}, it must be ${PNG_LOGO_SIZE}x${PNG_LOGO_SIZE}`)
  }
}

// ---------------------------------------------------------------------------------------------
// SVG content. A logo is shown on the stack's sites, so it must be a plain drawing: nothing that
// runs, embeds HTML, moves, or makes the browser fetch anything. The rule is an allowlist over
// the tree that svg.mjs reads strictly (UTF-8, well-formed, no DOCTYPE): every element and
// attribute must be a known drawing one, and every reference must point inside the file.

/** @typedef {import('./svg.mjs').XmlElement} XmlElement */
/** @typedef {import('./svg.mjs').XmlAttribute} XmlAttribute */
/** @typedef {import('./svg.mjs').XmlPi} XmlPi */

/** Spec 01's wording, kept exactly: it is listed in the contributor guide's table of messages. */
const EXTERNAL_MESSAGE = 'SVG must not reference external resources'

/** Elements that draw, group, define paint or describe, and fetch or run nothing. */
const DRAWING_ELEMENTS = new Set([
  'svg', 'g', 'defs', 'symbol', 'use', 'title', 'desc', 'metadata', 'style',
  'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'text', 'tspan', 'textPath',
  'linearGradient', 'radialGradient', 'stop', 'clipPath', 'mask', 'pattern', 'marker',
  // Allowed only with an inline PNG, JPEG, GIF or WebP (checked with the href).
  'image',
  // Filter primitives, except feImage, which loads a file or renders another element.
  'filter', 'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix',
  'feDiffuseLighting', 'feDisplacementMap', 'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA',
  'feFuncB', 'feFuncG', 'feFuncR', 'feGaussianBlur', 'feMerge', 'feMergeNode', 'feMorphology',
  'feOffset', 'fePointLight', 'feSpecularLighting', 'feSpotLight', 'feTile', 'feTurbulence',
])

/** Animation can set any attribute later (an href, an event handler), so none is allowed. */
const ANIMATION_ELEMENTS = new Set(['animate', 'animatemotion', 'animatetransform', 'animatecolor', 'set', 'discard', 'mpath'])

/** Unprefixed attributes a drawing may carry; `data-*` and `aria-*` are allowed besides. */
const ATTRIBUTES = new Set([
  // core and document
  'id', 'class', 'style', 'lang', 'version', 'baseProfile', 'role', 'focusable',
  'viewBox', 'preserveAspectRatio', 'zoomAndPan', 'transform', 'type', 'media',
  // geometry
  'x', 'y', 'width', 'height', 'd', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'fr', 'x1', 'y1', 'x2', 'y2',
  'points', 'pathLength', 'dx', 'dy', 'rotate', 'textLength', 'lengthAdjust', 'startOffset', 'method',
  'spacing', 'side', 'path', 'refX', 'refY', 'markerWidth', 'markerHeight', 'markerUnits', 'orient',
  // presentation attributes (CSS properties written as attributes)
  'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin',
  'stroke-miterlimit', 'stroke-dasharray', 'stroke-dashoffset', 'stroke-opacity', 'opacity', 'color',
  'display', 'visibility', 'overflow', 'clip', 'clip-path', 'clip-rule', 'mask', 'mask-type', 'filter',
  'marker-start', 'marker-mid', 'marker-end', 'stop-color', 'stop-opacity', 'flood-color', 'flood-opacity',
  'lighting-color', 'color-interpolation', 'color-interpolation-filters', 'color-rendering',
  'shape-rendering', 'text-rendering', 'image-rendering', 'paint-order', 'vector-effect', 'pointer-events',
  'mix-blend-mode', 'isolation', 'transform-origin', 'transform-box', 'enable-background',
  'font', 'font-family', 'font-size', 'font-size-adjust', 'font-stretch', 'font-style', 'font-variant',
  'font-weight', 'letter-spacing', 'word-spacing', 'kerning', 'text-anchor', 'text-decoration',
  'dominant-baseline', 'alignment-baseline', 'baseline-shift', 'writing-mode', 'direction',
  'unicode-bidi', 'white-space', 'glyph-orientation-horizontal', 'glyph-orientation-vertical',
  // paint servers, clipping, masking and filter regions
  'gradientUnits', 'gradientTransform', 'spreadMethod', 'offset', 'patternUnits', 'patternContentUnits',
  'patternTransform', 'clipPathUnits', 'maskUnits', 'maskContentUnits', 'filterUnits', 'primitiveUnits',
  'filterRes',
  // filter primitives
  'in', 'in2', 'result', 'mode', 'values', 'operator', 'k1', 'k2', 'k3', 'k4', 'stdDeviation', 'edgeMode',
  'order', 'kernelMatrix', 'divisor', 'bias', 'targetX', 'targetY', 'kernelUnitLength', 'preserveAlpha',
  'surfaceScale', 'diffuseConstant', 'specularConstant', 'specularExponent', 'azimuth', 'elevation', 'z',
  'pointsAtX', 'pointsAtY', 'pointsAtZ', 'limitingConeAngle', 'scale', 'xChannelSelector',
  'yChannelSelector', 'radius', 'baseFrequency', 'numOctaves', 'seed', 'stitchTiles', 'tableValues',
  'slope', 'intercept', 'amplitude', 'exponent',
])

/** Attributes whose value is a name or free text, never CSS, so the CSS scan would only misfire. */
const TEXT_ATTRIBUTES = new Set(['id', 'class', 'lang', 'version', 'baseProfile', 'role', 'type', 'media'])

/** CSS functions a drawing uses: colours, maths, transforms, filters, easing, shapes; url(#id) besides. */
const CSS_FUNCTIONS = new Set([
  'rgb', 'rgba', 'hsl', 'hsla', 'hwb', 'lab', 'lch', 'oklab', 'oklch', 'color', 'color-mix', 'var', 'calc', 'min', 'max', 'clamp',
  'matrix', 'matrix3d', 'translate', 'translatex', 'translatey', 'translatez', 'translate3d', 'scale', 'scalex', 'scaley',
  'scalez', 'scale3d', 'rotate', 'rotatex', 'rotatey', 'rotatez', 'rotate3d', 'skew', 'skewx', 'skewy', 'perspective',
  'blur', 'brightness', 'contrast', 'drop-shadow', 'grayscale', 'hue-rotate', 'invert', 'opacity', 'saturate', 'sepia',
  'cubic-bezier', 'steps', 'linear', 'path', 'circle', 'ellipse', 'inset', 'polygon', 'rect', 'xywh', 'local',
])

/** CSS functions that load an image or a document (besides url() and src() to anything but #id). */
const FETCHING_CSS_FUNCTIONS = new Set(['image-set', '-webkit-image-set', 'image', 'cross-fade', '-webkit-cross-fade', 'element', '-moz-element', 'paint'])

/** A CSS function token: an identifier directly followed by "(" (CSS names are ASCII case-insensitive; the text is lower-cased first). */
const CSS_FUNCTION = /(?<![\w\u0080-\uFFFF-])(-{0,2}[a-z_\u0080-\uFFFF][\w\u0080-\uFFFF-]*)\(/gu

/** The argument of url() when it points inside the file: `(#id)`, `("#id")` or `('#id')`; read at the "(" (sticky). */
const LOCAL_CSS_URL = /\(\s*(?:"#[^"\s]+"|'#[^'\s]+'|#[^\s"'()]+)\s*\)/y

/** An image's only allowed source: raster data inside the file (never SVG, which could hold anything). */
const INLINE_RASTER = /^data:image\/(?:png|jpeg|gif|webp)[;,]/i

/** How many different SVG problems are listed one by one. */
const MAX_SVG_MESSAGES = 20

/**
 * What a logo breaks, one message per kind of problem (the first place it occurs), so that a
 * file exported with an editor's extras gets a short list rather than one line per element.
 */
class SvgFindings {
  constructor() {
    /** @type {Map<string, string>} */
    this.messages = new Map()
    /** @type {Set<string>} */
    this.handlers = new Set()
  }

  /** @param {string} key what kind of problem @param {string} message */
  add(key, message) {
    if (!this.messages.has(key)) this.messages.set(key, message)
  }

  /** Event handlers share one message that names them all. @param {string} name */
  addHandler(name) {
    this.handlers.add(name)
    this.add('handlers', '')
  }

  /** At most MAX_SVG_MESSAGES of them, so that a hostile file cannot flood the explorer's log. @returns {string[]} */
  list() {
    const names = [...this.handlers]
    const handlers = `SVG must not have event-handler attributes (${names.slice(0, 10).join(', ')}${names.length > 10 ? ', ...' : ''})`
    const messages = [...this.messages].map(([key, message]) => (key === 'handlers' ? handlers : message))
    if (messages.length <= MAX_SVG_MESSAGES) return messages
    return [...messages.slice(0, MAX_SVG_MESSAGES), `SVG has ${messages.length - MAX_SVG_MESSAGES} more problems like these`]
  }
}

/** @param {Report} report @param {Uint8Array} bytes */
function checkSvg(report, bytes) {
  const read = readSvg(bytes)
  if ('error' in read) {
    report.add([], read.error)
    return
  }
  const { root, instructions } = read.document
  const findings = new SvgFindings()
  // The type sniffing already saw an svg element first; this holds whatever it let through.
  if (root.local !== 'svg') findings.add('root', `SVG's root element must be <svg>, not <${root.name}>`)
  for (const instruction of instructions) checkInstruction(findings, instruction)
  checkElement(findings, root)
  for (const message of findings.list()) report.add([], message)
  checkSvgSquare(report, root)
}

/**
 * An element, its attributes and everything inside it. The recursion is bounded by the
 * reader's nesting limit (svg.mjs MAX_DEPTH).
 * @param {SvgFindings} findings @param {XmlElement} element
 */
function checkElement(findings, element) {
  const allowed = checkElementName(findings, element)
  for (const attribute of element.attributes) checkAttribute(findings, element, attribute, allowed)
  if (element.local === 'style') checkCss(findings, textOf(element))
  for (const child of element.children) {
    if (child.type === 'element') checkElement(findings, child)
    else if (child.type === 'pi') checkInstruction(findings, child)
  }
}

/**
 * Whether the element is an allowed drawing element; if not, says why.
 * @param {SvgFindings} findings @param {XmlElement} element
 */
function checkElementName(findings, element) {
  const { name, local, namespace, line } = element
  // Named in any case and under any prefix: a refusal costs nothing, a miss could run code.
  const lower = local.toLowerCase()
  if (lower === 'script') findings.add('script', 'SVG must not contain a script element')
  else if (lower === 'foreignobject') findings.add('foreignObject', 'SVG must not contain a foreignObject element')
  else if (ANIMATION_ELEMENTS.has(lower)) findings.add(`element ${name}`, `SVG must not contain animation elements (<${name}> at line ${line}); a logo is a still drawing`)
  else if (namespace === null) findings.add(`prefix ${element.prefix}`, undeclaredPrefix(element.prefix, `<${name}>`, line))
  else if (namespace === '') findings.add('xmlns', `SVG elements must be in the SVG namespace; put xmlns="${SVG_NS}" on the svg element`)
  else if (namespace !== SVG_NS) findings.add('foreign', foreignMarkup(`<${name}>`, line))
  else if (element.prefix) findings.add(`element ${name}`, `SVG elements must not have a prefix (<${name}> at line ${line}); write <${local}> in the default namespace`)
  else if (!DRAWING_ELEMENTS.has(local)) findings.add(`element ${name}`, `SVG must not contain <${local}> elements (line ${line}); only plain drawing elements are allowed`)
  else return true
  return false
}

/**
 * @param {SvgFindings} findings @param {XmlElement} element @param {XmlAttribute} attribute
 * @param {boolean} elementAllowed false when the element is refused already: its attributes are
 *   then checked only for what runs or fetches, not against the list of drawing attributes
 */
function checkAttribute(findings, element, attribute, elementAllowed) {
  const { name, local, namespace, value, line } = attribute
  // However written (onload, ONLOAD, x:onclick): a name that could be an event handler.
  if (/^on/i.test(local)) return findings.addHandler(name)
  // A namespace declaration is harmless in itself; what it binds is checked where it is used.
  if (namespace === XMLNS_NS) return
  checkScriptUrl(findings, value)
  if (local === 'href') checkHref(findings, element, value)
  if (namespace === null) findings.add(`prefix ${attribute.prefix}`, undeclaredPrefix(attribute.prefix, `${name}="..."`, line))
  else if (namespace !== '') {
    if (!isAllowedNamespacedAttribute(namespace, local)) findings.add('foreign', foreignMarkup(`${name}="..."`, line))
  } else if (!ATTRIBUTES.has(name) && !/^(?:data|aria)-[\w.-]+$/.test(name) && name !== 'href') {
    if (elementAllowed) findings.add(`attribute ${name}`, `SVG must not have the attribute ${name} (on <${element.name}> at line ${line}); only presentation and geometry attributes are allowed`)
  } else if (!TEXT_ATTRIBUTES.has(name) && !/^(?:data|aria)-/.test(name) && name !== 'href') {
    // Presentation attributes and style are parsed as CSS, where url() and friends fetch.
    checkCss(findings, value)
  }
}

/** xlink:href, xml:space and xml:lang; anything else namespaced is an editor's or another language's. @param {string} namespace @param {string} local */
function isAllowedNamespacedAttribute(namespace, local) {
  return (namespace === XLINK_NS && local === 'href') || (namespace === XML_NS && (local === 'space' || local === 'lang'))
}

/** @param {string} prefix @param {string} what @param {number} line */
function undeclaredPrefix(prefix, what, line) {
  return `SVG uses the prefix ${prefix} without declaring it (${what} at line ${line})`
}

/** @param {string} what @param {number} line */
function foreignMarkup(what, line) {
  return `SVG must not carry editor data or other non-SVG markup (${what} at line ${line}); export a plain SVG (Inkscape: Save As, Plain SVG)`
}

/**
 * href and xlink:href: a `#id` inside the file, or for an image an inline raster image.
 * Browsers strip leading and trailing spaces and control characters from a URL, so this does too.
 * @param {SvgFindings} findings @param {XmlElement} element @param {string} value
 */
function checkHref(findings, element, value) {
  const url = value.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '')
  const inside = element.local === 'image' ? INLINE_RASTER.test(url) : /^#[^\x00-\x20]+$/.test(url)
  if (!inside) findings.add('external', EXTERNAL_MESSAGE)
}

/** URL parsers drop tabs, newlines and controls, so look past them too. @param {SvgFindings} findings @param {string} value */
function checkScriptUrl(findings, value) {
  if (value.replace(/[\x00-\x20]/g, '').toLowerCase().includes('javascript:')) findings.add('javascript', 'SVG must not contain javascript: URLs')
}

/**
 * CSS text: a style attribute, a presentation attribute or a <style> element. Rather than parse
 * CSS, refuse what could hide a reference (any backslash: CSS escapes turn `u\rl(` into `url(`),
 * drop comments, and then allow only known functions, url() only to a #id.
 * @param {SvgFindings} findings @param {string} css
 */
function checkCss(findings, css) {
  if (css.includes('\\')) findings.add('css-escape', 'SVG styles must not contain a backslash (a CSS escape can hide url() or @import)')
  // Comments removed without a trace: `u/**/rl(` then reads as url( and is checked, never missed.
  const plain = css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '').toLowerCase()
  checkScriptUrl(findings, plain)
  if (plain.includes('@import')) findings.add('external', EXTERNAL_MESSAGE)
  for (const match of plain.matchAll(CSS_FUNCTION)) {
    const name = /** @type {string} */ (match[1])
    if (name === 'url' || name === 'src') {
      LOCAL_CSS_URL.lastIndex = /** @type {number} */ (match.index) + match[0].length - 1
      if (!LOCAL_CSS_URL.test(plain)) findings.add('external', EXTERNAL_MESSAGE)
    } else if (FETCHING_CSS_FUNCTIONS.has(name)) {
      findings.add('external', EXTERNAL_MESSAGE)
    } else if (!CSS_FUNCTIONS.has(name)) {
      findings.add(`css ${name}`, `SVG styles must not use the CSS function ${name}(); only colours, transforms, filters and url(#id) are allowed`)
    }
  }
}

/** Processing instructions do nothing in a drawing, and xml-stylesheet loads a style sheet. @param {SvgFindings} findings @param {XmlPi} instruction */
function checkInstruction(findings, instruction) {
  findings.add('pi', `SVG must not contain processing instructions (<?${instruction.target} ...?> at line ${instruction.line}); only the <?xml ...?> declaration is allowed`)
  if (instruction.target.toLowerCase() === 'xml-stylesheet') findings.add('external', EXTERNAL_MESSAGE)
}

/** The text directly inside an element (a <style> element's CSS). @param {XmlElement} element */
function textOf(element) {
  return element.children.map((child) => (child.type === 'text' ? child.text : '')).join('')
}

/** Logos are square; an SVG needs a viewBox to scale to 20 pixels and to 256. @param {Report} report @param {XmlElement} root */
function checkSvgSquare(report, root) {
  const viewBox = root.attributes.find((attribute) => attribute.name === 'viewBox')?.value
  if (viewBox === undefined) {
    report.add([], 'SVG needs a viewBox on its svg element so that it scales')
    return
  }
  const [, , width, height] = viewBox.trim().split(/[\s,]+/).map(Number)
  if (!(Number(width) > 0) || width !== height) report.add([], `SVG viewBox is "${viewBox}"; a logo must be square`)
}
