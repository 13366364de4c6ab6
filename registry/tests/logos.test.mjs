import assert from 'node:assert/strict'
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { checkLogo } from '../scripts/validate.mjs'
import { copyRegistry, png, removeFixtures, svg, validate } from './fixture.mjs'

after(removeFixtures)

const BX = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const BX_LOGO = `testnet/logos/tokens/${BX}.png`
const text = (value) => new TextEncoder().encode(value)

/** The messages checkLogo gives a tag logo called `name`. */
const tagLogo = (bytes, name = 'logo.svg') => checkLogo(bytes, `testnet/logos/tags/${name}`, { kind: 'tags' }).map((p) => p.message)

describe('PNG logos', () => {
  test('the size comes from the IHDR chunk', () => {
    assert.deepEqual(tagLogo(png(256, 256), 'a.png'), [])
    assert.deepEqual(tagLogo(png(300, 200), 'a.png'), ['PNG is 300x200, it must be 256x256'])
    assert.deepEqual(tagLogo(png(256, 255), 'a.png'), ['PNG is 256x255, it must be 256x256'])
  })

  test('a PNG without its IHDR chunk is damaged', () => {
    assert.deepEqual(tagLogo(png(256, 256).subarray(0, 16), 'a.png'), ['PNG has no IHDR chunk after its signature; the file is damaged'])
  })

  test('at most 102400 bytes', () => {
    const padded = (size) => {
      const bytes = new Uint8Array(size)
      bytes.set(png(256, 256))
      return bytes
    }
    assert.deepEqual(tagLogo(padded(102400), 'a.png'), [])
    assert.deepEqual(tagLogo(padded(102401), 'a.png'), ['102401 bytes, the limit is 102400'])
  })

  test('a token logo of the wrong size fails the repository check', () => {
    const dir = copyRegistry()
    writeFileSync(join(dir, BX_LOGO), png(128, 128))
    const { code, output } = validate(dir)
    assert.equal(code, 1)
    assert.ok(output.includes(`${BX_LOGO}: PNG is 128x128, it must be 256x256`), output)
  })

  test('an oversized token logo fails the repository check', () => {
    const dir = copyRegistry()
    writeFileSync(join(dir, BX_LOGO), Buffer.concat([png(256, 256), Buffer.alloc(110_000)]))
    const { code, output } = validate(dir)
    assert.equal(code, 1)
    assert.match(output, new RegExp(`${BX_LOGO}: \\d+ bytes, the limit is 102400`))
  })
})

describe('the type comes from the bytes, not the extension', () => {
  test('an SVG named .png', () => {
    assert.deepEqual(tagLogo(text(svg()), 'a.png'), ['the bytes are SVG but the file is named .png; name it .svg'])
  })

  test('a PNG named .svg', () => {
    assert.deepEqual(tagLogo(png(256, 256), 'a.svg'), ['the bytes are PNG but the file is named .svg; name it .png'])
  })

  test('neither PNG nor SVG', () => {
    assert.deepEqual(tagLogo(text('GIF89a...'), 'a.png'), ['is neither a PNG nor an SVG (the type is read from the bytes, not from the extension)'])
    assert.deepEqual(tagLogo(text('<html><svg></svg></html>'), 'a.svg'), ['is neither a PNG nor an SVG (the type is read from the bytes, not from the extension)'])
  })

  test('an XML declaration and comments may precede the svg element', () => {
    assert.deepEqual(tagLogo(text(`<?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn by hand -->\n${svg()}`)), [])
  })
})

describe('SVG logos are plain drawings', () => {
  const external = 'SVG must not reference external resources'
  const cases = [
    ['a script element', '<script>alert(1)</script>', 'SVG must not contain a script element'],
    ['a namespaced script element', '<svg:script>alert(1)</svg:script>', 'SVG must not contain a script element'],
    ['an onload attribute', '<rect width="1" height="1" onload="alert(1)"/>', 'SVG must not have event-handler attributes (onload)'],
    ['an onclick attribute', "<g onclick='x()'/>", 'SVG must not have event-handler attributes (onclick)'],
    ['a foreignObject', '<foreignObject width="10" height="10"><p>hi</p></foreignObject>', 'SVG must not contain a foreignObject element'],
    ['an external href', '<image href="https://example.org/a.png" width="10" height="10"/>', external],
    ['an external xlink:href', '<use xlink:href="other.svg#shape"/>', external],
    ['an external url()', '<rect width="10" height="10" fill="url(https://example.org/p.svg#g)"/>', external],
    ['an external url() in a style element', "<style>rect { fill: url('http://example.org/x') }</style>", external],
    ['an @import', '<style>@import "https://example.org/a.css";</style>', external],
    ['an animated href', '<a><set attributeName="href" to="#x"/></a>', 'SVG must not contain animation elements (<set> at line 1); a logo is a still drawing'],
    ['a javascript: URL', '<a href="javascript:alert(1)"><circle r="1"/></a>', 'SVG must not contain javascript: URLs'],
  ]
  for (const [what, markup, message] of cases) {
    test(`rejects ${what}`, () => {
      assert.ok(tagLogo(text(svg(markup))).includes(message), JSON.stringify(tagLogo(text(svg(markup)))))
    })
  }

  test('rejects a DOCTYPE', () => {
    const doc = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>${svg()}`
    assert.deepEqual(tagLogo(text(doc)), ['SVG must not contain a DOCTYPE (entities can pull in other files)'])
  })

  test('allows same-document references and inline raster images', () => {
    const markup =
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient><path id="p" d="M0 0h1"/></defs>' +
      '<rect width="10" height="10" fill="url(#g)" style="stroke: url( \'#g\' )"/><use href="#p"/>' +
      '<use xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href=" #p "/>' +
      '<image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/><text>only on demand</text>'
    assert.deepEqual(tagLogo(text(svg(markup))), [])
  })

  test('is square and scalable', () => {
    const root = '<svg xmlns="http://www.w3.org/2000/svg"'
    assert.deepEqual(tagLogo(text(`${root} viewBox="0 0 256 128"><rect width="1" height="1"/></svg>`)), ['SVG viewBox is "0 0 256 128"; a logo must be square'])
    assert.deepEqual(tagLogo(text(`${root} width="256" height="256"><rect width="1" height="1"/></svg>`)), ['SVG needs a viewBox on its svg element so that it scales'])
  })

  test('an SVG token logo with an external reference fails the repository check', () => {
    const dir = copyRegistry()
    const file = 'testnet/logos/tokens/0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512.svg'
    writeFileSync(join(dir, file), svg('<image href="https://example.org/a.png" width="10" height="10"/>'))
    const { code, output } = validate(dir)
    assert.equal(code, 1)
    assert.ok(output.includes(`${file}: ${external}`), output)
  })
})

/** The messages checkLogo gives an SVG tag logo of these bytes (a string is written as UTF-8). */
const svgLogo = (content) => tagLogo(typeof content === 'string' ? text(content) : content)
const SVG_NS = 'http://www.w3.org/2000/svg'
const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"'
const external = 'SVG must not reference external resources'
const bytes = (...parts) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))))

/** Asserts that the markup is refused, and with `message` when one is given. */
function assertRefused(content, message) {
  const messages = svgLogo(content)
  assert.ok(messages.length > 0, 'accepted')
  if (message instanceof RegExp) assert.ok(messages.some((m) => message.test(m)), JSON.stringify(messages))
  else if (message) assert.ok(messages.includes(message), JSON.stringify(messages))
}

describe('SVG: the bypasses of the old pattern scan are refused', () => {
  test('a script element under a non-ASCII prefix', () => {
    assertRefused(svg('<é:script>alert(1)</é:script>'), 'SVG must not contain a script element')
    assertRefused(svg('<é:script xmlns:é="http://www.w3.org/2000/svg">alert(1)</é:script>'), 'SVG must not contain a script element')
  })

  test('an encoding other than UTF-8, whose escape sequences hide a script element', () => {
    // In ISO-2022-JP, ESC ( B and ESC $ B switch character sets and decode to nothing, so a
    // browser reads <scr ESC ( B ipt> as <script>; decoded as UTF-8 the tag is not "script".
    const ESC_ASCII = [0x1b, 0x28, 0x42]
    const ESC_JIS = [0x1b, 0x24, 0x42]
    const doc = bytes(
      `<?xml version="1.0" encoding="ISO-2022-JP"?>\n<svg xmlns="${SVG_NS}" viewBox="0 0 256 256"><text>`,
      ESC_JIS, [0x46, 0x7c], ESC_ASCII, // one kanji, then back to ASCII
      '</text><scr', ESC_ASCII, 'ipt>alert(1)</scr', ESC_ASCII, 'ipt></svg>',
    )
    assert.deepEqual(svgLogo(doc), ['SVG must be encoded as UTF-8, but its XML declaration says encoding="ISO-2022-JP"'])
    assertRefused(`<?xml version='1.0' encoding='Shift_JIS'?>${svg()}`, /must be encoded as UTF-8.*Shift_JIS/)
  })

  test('image-set() in a style', () => {
    assertRefused(svg('<rect width="1" height="1" style="fill:image-set(\'https://example.org/a.png\' 1x)"/>'), external)
    assertRefused(svg('<style>rect { fill: -webkit-image-set("https://example.org/a.png" 1x) }</style>'), external)
  })

  test('an animation that sets an event handler', () => {
    assertRefused(svg('<set attributeName="onmouseover" to="alert(1)"/>'), /animation elements \(<set>/)
  })

  test('XML that is not well formed', () => {
    assertRefused(svg('<rect width="1" height="1">'), /^SVG is not well-formed XML at line 1, column \d+: the end tag <\/svg> does not match the start tag <rect>/)
  })
})

describe('SVG: only UTF-8', () => {
  test('no declaration, or encoding="UTF-8" in any case, with or without a UTF-8 byte order mark', () => {
    assert.deepEqual(svgLogo(svg()), [])
    assert.deepEqual(svgLogo(`<?xml version="1.0" encoding="utf-8"?>${svg()}`), [])
    assert.deepEqual(svgLogo(bytes([0xef, 0xbb, 0xbf], `<?xml version="1.0" encoding="UTF-8"?>\n${svg()}`)), [])
  })

  test('a UTF-16 or UTF-32 byte order mark', () => {
    const utf16 = bytes([0xff, 0xfe], Buffer.from(svg(), 'utf16le'))
    assert.deepEqual(svgLogo(utf16), ['SVG must be encoded as UTF-8, but it starts with a UTF-16 byte order mark'])
    const utf16be = bytes([0xfe, 0xff], Buffer.from(svg(), 'utf16le').swap16())
    assert.deepEqual(svgLogo(utf16be), ['SVG must be encoded as UTF-8, but it starts with a UTF-16 byte order mark'])
    const utf32 = bytes([0xff, 0xfe, 0, 0], [...svg()].flatMap((c) => [c.charCodeAt(0), 0, 0, 0]))
    assert.deepEqual(svgLogo(utf32), ['SVG must be encoded as UTF-8, but it starts with a UTF-32 byte order mark'])
  })

  test('bytes that are not UTF-8', () => {
    const before = `<svg xmlns="${SVG_NS}" viewBox="0 0 1 1">\n<title>café, caf` // é in UTF-8, then in Latin-1
    const doc = bytes(before, [0xe9], '</title></svg>')
    assert.deepEqual(svgLogo(doc), [`SVG must be encoded as UTF-8, but byte ${Buffer.byteLength(before)} (line 2) is not valid UTF-8`])
    assertRefused(bytes(svg('<title>'), [0xc0, 0xaf], '</title>'), /not valid UTF-8/) // an overlong "/"
    assertRefused(bytes(svg('<title>'), [0xed, 0xa0, 0x80], '</title>'), /not valid UTF-8/) // a surrogate
  })

  test('characters XML forbids, written or referenced', () => {
    assertRefused(svg('<title>\u001b</title>'), /the character U\+001B is not allowed in XML/)
    assertRefused(svg('<title>&#0;</title>'), /the character reference &#0; is not a character XML allows/)
    assertRefused(svg('<title>&#xFFFE;</title>'), /&#xFFFE; is not a character XML allows/)
  })
})

describe('SVG: only well-formed XML', () => {
  const malformed = [
    ['an unclosed tag', svg('<g><rect width="1" height="1"></g>'), 'line 1, column 143: the end tag </g> does not match the start tag <rect>'],
    ['mismatched tags', svg('<g></G>'), 'the end tag </G> does not match the start tag <g>'],
    ['a tag that never ends', `<svg xmlns="${SVG_NS}" viewBox="0 0 1 1">\n<g>\n`, 'line 3, column 1: the element <g> opened at line 2 is never closed'],
    ['a duplicate attribute', svg('<rect width="1" width="2"/>'), 'the attribute width appears twice in <rect>'],
    ['an unquoted attribute', svg('<rect width=1 height="1"/>'), 'the value of width must be in quotes'],
    ['an attribute without a value', svg('<rect hidden/>'), 'the attribute hidden has no value'],
    ['attributes without a space between them', svg('<rect x="1"y="1"/>'), 'expected a space, > or /> in the start tag <rect>'],
    ['"<" in an attribute value', svg('<rect id="a<b"/>'), '"<" is not allowed in an attribute value'],
    ['a second root element', `${svg()}<svg xmlns="${SVG_NS}"/>`, 'line 2, column 1: a second root element'],
    ['text after the root element', `${svg()}alert(1)`, 'content after the end of the <svg> element'],
    ['"--" in a comment before the root element', `<!-- a -- b -->\n${svg()}`, 'line 1, column 8: "--" is not allowed inside a comment'],
    ['an undefined entity', svg('<title>&nbsp;</title>'), 'the entity &nbsp; is not defined'],
    ['a bare ampersand', svg('<title>A & B</title>'), '"&" must start a reference'],
    ['"--" inside a comment', svg('<!-- a -- b -->'), '"--" is not allowed inside a comment'],
    ['an unclosed comment', svg('<!-- <script>alert(1)</script>'), 'a comment is never closed'],
    ['an unclosed CDATA section', svg('<style><![CDATA[rect{}</style>'), 'a CDATA section is never closed'],
    ['"]]>" in text', svg('<title>]]></title>'), '"]]>" is not allowed in text'],
    ['an XML declaration after a space', ` <?xml version="1.0"?>${svg()}`, 'an XML declaration must be written <?xml ...?> and stand at the very start of the file'],
    ['a malformed XML declaration', `<?xml encoding="UTF-8"?>${svg()}`, 'the XML declaration is malformed'],
    ['an XML 1.1 declaration', `<?xml version="1.1"?>${svg()}`, 'the XML declaration is malformed'],
    ['a name with two colons', svg('<a:b:c/>'), '"a:b:c" is not a valid element name'],
    ['the xmlns prefix declared', svg('<g xmlns:xmlns="urn:x"/>'), 'the prefix xmlns must not be declared'],
    ['a prefix undeclared with ""', svg('<g xmlns:p=""/>'), 'the prefix p must not be undeclared'],
    ['the same attribute under two prefixes', svg('<use xmlns:a="http://www.w3.org/1999/xlink" xmlns:b="http://www.w3.org/1999/xlink" a:href="#x" b:href="https://x/"/>'), 'two attributes of <use> name the same href'],
    ['nesting deeper than 256 levels', svg(`${'<g>'.repeat(300)}${'</g>'.repeat(300)}`), 'elements are nested more than 256 deep'],
  ]
  for (const [what, doc, message] of malformed) {
    test(`refuses ${what}, as one problem with its place`, () => {
      const messages = svgLogo(doc)
      assert.equal(messages.length, 1, JSON.stringify(messages))
      assert.match(messages[0], /^SVG is not well-formed XML at line \d+, column \d+: /)
      assert.ok(messages[0].includes(message), messages[0])
    })
  }

  test('a DOCTYPE in any form, and entity declarations, are refused without reading them', () => {
    const doctype = 'SVG must not contain a DOCTYPE (entities can pull in other files)'
    const billion = '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    assert.deepEqual(svgLogo(`${billion}<svg xmlns="${SVG_NS}" viewBox="0 0 1 1"><title>&b;</title></svg>`), [doctype])
    assert.deepEqual(svgLogo(`<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n${svg()}`), [doctype])
    assert.deepEqual(svgLogo(svg('<!ENTITY x "y">')), [doctype])
    assert.deepEqual(svgLogo(`${svg()}<!doctype svg>`), [doctype])
  })

  test('CDATA is text: a script inside it is only text, a script around it is refused', () => {
    assert.deepEqual(svgLogo(svg('<text><![CDATA[<script>alert(1)</script>]]></text>')), [])
    assertRefused(svg('<script><![CDATA[alert(1)]]></script>'), 'SVG must not contain a script element')
    // A comment that looks as if it opened a CDATA section does not hide what follows it.
    assertRefused(svg('<!-- <![CDATA[ --><script>alert(1)</script><!-- ]]> -->'), 'SVG must not contain a script element')
    assertRefused(svg('<title>&lt;![CDATA[</title><script>alert(1)</script>'), 'SVG must not contain a script element')
  })

  test('processing instructions other than the XML declaration are refused', () => {
    assert.deepEqual(svgLogo(`<?xml-stylesheet href="https://example.org/a.css"?>${svg()}`), [
      'SVG must not contain processing instructions (<?xml-stylesheet ...?> at line 1); only the <?xml ...?> declaration is allowed',
      external,
    ])
    assertRefused(svg('<?editor data?>'), /processing instructions \(<\?editor/)
  })
})

describe('SVG: only drawing elements', () => {
  const refused = [
    ['an upper-case SCRIPT', '<SCRIPT>alert(1)</SCRIPT>', 'SVG must not contain a script element'],
    ['a mixed-case sCrIpT', '<sCrIpT>alert(1)</sCrIpT>', 'SVG must not contain a script element'],
    ['an svg:script bound to the SVG namespace', `<svg:script xmlns:svg="${SVG_NS}">alert(1)</svg:script>`, 'SVG must not contain a script element'],
    ['an XHTML script', '<script xmlns="http://www.w3.org/1999/xhtml">alert(1)</script>', 'SVG must not contain a script element'],
    ['a prefixed foreignObject', `<s:foreignObject xmlns:s="${SVG_NS}"/>`, 'SVG must not contain a foreignObject element'],
    ['feImage', '<filter id="f"><feImage href="https://example.org/a.png"/></filter>', /<feImage> elements \(line 1\)/],
    ['animate of href', '<animate attributeName="href" to="https://example.org/"/>', /animation elements \(<animate>/],
    ['animateTransform', '<animateTransform attributeName="transform" type="rotate" from="0" to="360" dur="1s"/>', /animation elements \(<animateTransform>/],
    ['a link', '<a href="#x"><circle r="1"/></a>', 'SVG must not contain <a> elements (line 1); only plain drawing elements are allowed'],
    ['an iframe', '<iframe/>', /<iframe> elements/],
    ['a handler element', '<handler type="application/ecmascript">alert(1)</handler>', /<handler> elements/],
    ['an XHTML element', '<div xmlns="http://www.w3.org/1999/xhtml"/>', /non-SVG markup \(<div> at line 1\); export a plain SVG/],
    ['an element in an undeclared namespace', '<x:rect/>', 'SVG uses the prefix x without declaring it (<x:rect> at line 1)'],
    ['a prefixed SVG element', `<s:rect xmlns:s="${SVG_NS}" width="1" height="1"/>`, /must not have a prefix \(<s:rect> at line 1\)/],
    ['Inkscape editor data', '<sodipodi:namedview xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"/>', /non-SVG markup \(<sodipodi:namedview> at line 1\); export a plain SVG/],
    ['RDF inside metadata', '<metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata>', /non-SVG markup \(<rdf:RDF>/],
  ]
  for (const [what, markup, message] of refused) {
    test(`refuses ${what}`, () => assertRefused(svg(markup), message))
  }

  test('the root must be svg in the SVG namespace', () => {
    assert.deepEqual(svgLogo('<svg viewBox="0 0 1 1"><rect width="1" height="1"/></svg>'), [
      `SVG elements must be in the SVG namespace; put xmlns="${SVG_NS}" on the svg element`,
    ])
    assertRefused(`<svg xmlns="http://www.w3.org/1999/xhtml" viewBox="0 0 1 1"/>`, /non-SVG markup \(<svg>/)
  })

  test('metadata may hold text', () => {
    assert.deepEqual(svgLogo(svg('<metadata>Stack logo, 2026</metadata>')), [])
  })
})

describe('SVG: only drawing attributes and references inside the file', () => {
  const refused = [
    ['an upper-case event handler', '<rect ONLOAD="alert(1)"/>', 'SVG must not have event-handler attributes (ONLOAD)'],
    ['a prefixed event handler', '<rect xmlns:x="urn:x" x:onclick="alert(1)"/>', 'SVG must not have event-handler attributes (x:onclick)'],
    ['several event handlers, named in one message', '<rect onload="a()"/><g onmouseover="b()"/>', 'SVG must not have event-handler attributes (onload, onmouseover)'],
    ['an xlink:href to javascript:', `<use ${XLINK} xlink:href="javascript:alert(1)"/>`, 'SVG must not contain javascript: URLs'],
    ['a href to a character-referenced javascript:', '<use href=" &#106;avascript:alert(1)"/>', 'SVG must not contain javascript: URLs'],
    ['a javascript: split by a referenced newline', '<use href="java&#10;script:alert(1)"/>', 'SVG must not contain javascript: URLs'],
    ['a use of another file', '<use href="https://example.org/#a"/>', external],
    ['a use of a relative file', '<use href="logo.svg#a"/>', external],
    ['an empty href (the file itself)', '<use href=""/>', external],
    ['an image of SVG data', '<image href="data:image/svg+xml,%3Csvg%3E" width="1" height="1"/>', external],
    ['an image with a #fragment', '<image href="#a" width="1" height="1"/>', external],
    ['a textPath of another file', '<text><textPath href="https://example.org/p.svg#p">x</textPath></text>', external],
    ['a gradient inheriting from another file', '<linearGradient id="g" href="https://example.org/g.svg#g"/>', external],
    ['a url() written with a CSS escape', '<rect width="1" height="1" style="background:u\\rl(http://example.org/)"/>', 'SVG styles must not contain a backslash (a CSS escape can hide url() or @import)'],
    ['a url() split by a CSS comment', '<rect width="1" height="1" style="fill:u/**/rl(http://example.org/)"/>', external],
    ['an upper-case URL()', '<rect width="1" height="1" fill="URL(http://example.org/#g)"/>', external],
    ['a url() after a local one', '<rect width="1" height="1" fill="url(#g) url(http://example.org/)"/>', external],
    ['a url() written with character references', '<rect width="1" height="1" fill="u&#114;l(http://example.org/)"/>', external],
    ['an @import in a style element', '<style>@import "x";</style>', external],
    ['an @import in CDATA', '<style><![CDATA[@IMPORT url(x.css);]]></style>', external],
    ['an @import split by an XML comment', '<style>@im<!-- -->port "x.css";</style>', external],
    ['a CSS escape in a style element', '<style>@\\69mport "x.css";</style>', 'SVG styles must not contain a backslash (a CSS escape can hide url() or @import)'],
    ['a font from another file', '<style>@font-face { font-family: x; src: url(https://example.org/x.woff2) }</style>', external],
    ['expression()', '<rect width="1" height="1" style="width:expression(alert(1))"/>', /the CSS function expression\(\)/],
    ['an unknown attribute', '<rect width="1" height="1" hreflang="en"/>', 'SVG must not have the attribute hreflang (on <rect> at line 1); only presentation and geometry attributes are allowed'],
    ['xml:base', '<g xml:base="https://example.org/"/>', /non-SVG markup \(xml:base="\.\.\."/],
    ['an Inkscape attribute', '<g xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" inkscape:label="Layer 1"/>', /non-SVG markup \(inkscape:label="\.\.\." at line 1\); export a plain SVG/],
    ['an xlink attribute other than href', `<use ${XLINK} xlink:href="#a" xlink:show="new"/>`, /non-SVG markup \(xlink:show/],
    ['an attribute in an undeclared namespace', '<use xlink:href="#a"/>', 'SVG uses the prefix xlink without declaring it (xlink:href="..." at line 1)'],
  ]
  for (const [what, markup, message] of refused) {
    test(`refuses ${what}`, () => assertRefused(svg(markup), message))
  }
})

describe('SVG: real exports pass', () => {
  test('an Inkscape plain SVG with gradients, a clip path, text, xlink and comments', () => {
    const inkscape = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Created with Inkscape (http://www.inkscape.org/) -->

<svg
   width="256"
   height="256"
   viewBox="0 0 67.733333 67.733333"
   version="1.1"
   id="svg5"
   xmlns:xlink="http://www.w3.org/1999/xlink"
   xmlns="http://www.w3.org/2000/svg"
   xmlns:svg="http://www.w3.org/2000/svg">
  <title id="title1">Stack &amp; friends</title>
  <defs
     id="defs2">
    <radialGradient
       xlink:href="#linearGradient1"
       id="radialGradient2"
       cx="33.866665" cy="33.866665" fx="33.866665" fy="33.866665" r="33.866665"
       gradientUnits="userSpaceOnUse" />
    <linearGradient
       id="linearGradient1">
      <stop style="stop-color:#ff7f2a;stop-opacity:1;" offset="0" id="stop1" />
      <stop style="stop-color:#aa4400;stop-opacity:1" offset="1" id="stop2" />
    </linearGradient>
    <clipPath clipPathUnits="userSpaceOnUse" id="clipPath1">
      <circle style="fill:#000000" cx="33.866665" cy="33.866665" r="30" />
    </clipPath>
  </defs>
  <g id="layer1">
    <circle
       style="fill:url(#radialGradient2);fill-opacity:1;stroke:none;stroke-width:0.264583;-inkscape-stroke:none;font-variation-settings:normal"
       id="path1" cx="33.866665" cy="33.866665" r="33.866665" />
    <path id="a" clip-path="url(#clipPath1)" d="m 10,50 23.866665,-40 L 57.733332,50 Z" style="fill:#ffffff" />
    <use xlink:href="#a" transform="rotate(180,33.866665,33.866665)" opacity="0.3" />
    <text xml:space="preserve" style="font-size:8.46667px;line-height:1.25;font-family:sans-serif" x="20" y="62"><tspan id="tspan1" x="20" y="62" style="font-weight:bold">STACK</tspan></text>
  </g>
</svg>
`
    assert.deepEqual(svgLogo(inkscape), [])
  })

  test('a Figma export with a filter, a mask, a pattern and an inline PNG', () => {
    const figma = `<svg width="256" height="256" viewBox="0 0 256 256" fill="none" xmlns="http://www.w3.org/2000/svg" ${XLINK}>
<g clip-path="url(#clip0_12_34)">
<g filter="url(#filter0_d_12_34)">
<circle cx="128" cy="124" r="112" fill="url(#paint0_linear_12_34)"/>
</g>
<mask id="mask0_12_34" style="mask-type:alpha" maskUnits="userSpaceOnUse" x="16" y="12" width="224" height="224">
<circle cx="128" cy="124" r="112" fill="#C4C4C4"/>
</mask>
<g mask="url(#mask0_12_34)">
<path fill-rule="evenodd" clip-rule="evenodd" d="M128 40L200 160H56L128 40Z" fill="white" fill-opacity="0.9"/>
</g>
<rect x="96" y="180" width="64" height="16" rx="8" fill="url(#pattern0)"/>
</g>
<defs>
<filter id="filter0_d_12_34" x="12" y="12" width="232" height="232" filterUnits="userSpaceOnUse" color-interpolation-filters="sRGB">
<feFlood flood-opacity="0" result="BackgroundImageFix"/>
<feColorMatrix in="SourceAlpha" type="matrix" values="0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 127 0" result="hardAlpha"/>
<feOffset dy="4"/>
<feGaussianBlur stdDeviation="2"/>
<feComposite in2="hardAlpha" operator="out"/>
<feBlend mode="normal" in2="BackgroundImageFix" result="effect1_dropShadow_12_34"/>
<feBlend mode="normal" in="SourceGraphic" in2="effect1_dropShadow_12_34" result="shape"/>
</filter>
<pattern id="pattern0" patternContentUnits="objectBoundingBox" width="1" height="1">
<use xlink:href="#image0_12_34" transform="matrix(0.01 0 0 0.04 0 0)"/>
</pattern>
<linearGradient id="paint0_linear_12_34" x1="128" y1="12" x2="128" y2="236" gradientUnits="userSpaceOnUse">
<stop stop-color="#6C5CE7"/>
<stop offset="1" stop-color="#341F97"/>
</linearGradient>
<clipPath id="clip0_12_34">
<rect width="256" height="256" fill="white"/>
</clipPath>
<image id="image0_12_34" width="100" height="25" xlink:href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="/>
</defs>
</svg>
`
    assert.deepEqual(svgLogo(figma), [])
  })

  test('an Illustrator export with a style element, xml:space, enable-background and data-name', () => {
    const illustrator = `<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: Adobe Illustrator 27.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->
<svg version="1.1" id="Layer_1" xmlns="http://www.w3.org/2000/svg" ${XLINK} x="0px" y="0px"
\t viewBox="0 0 256 256" style="enable-background:new 0 0 256 256;" xml:space="preserve">
<style type="text/css">
\t.st0{fill:url(#SVGID_1_);}
\t.st1{fill:#FFFFFF;stroke:#231F20;stroke-width:4;stroke-miterlimit:10;}
\t.st2{font-family:'Helvetica-Bold';font-size:48px;}
\t/* a comment */
</style>
<g id="Layer_2_00000012345_" data-name="Layer 2">
\t<linearGradient id="SVGID_1_" gradientUnits="userSpaceOnUse" x1="0" y1="128" x2="256" y2="128" gradientTransform="matrix(1 0 0 -1 0 256)">
\t\t<stop  offset="0" style="stop-color:#F7931A"/>
\t\t<stop  offset="1" style="stop-color:#FFB74D"/>
\t</linearGradient>
\t<circle class="st0" cx="128" cy="128" r="128"/>
\t<polygon class="st1" points="128,40 216,200 40,200 \t"/>
\t<text transform="matrix(1 0 0 1 86.5 180)" class="st2">ST</text>
</g>
</svg>
`
    assert.deepEqual(svgLogo(illustrator), [])
  })

  test('CRLF line ends, single quotes, references and a marker', () => {
    const doc = `<?xml version='1.0' encoding='UTF-8' standalone='yes'?>\r\n<svg xmlns='${SVG_NS}' viewBox='0 0 32 32'>\r\n` +
      `<defs><marker id='m' viewBox='0 0 4 4' refX='2' refY='2' markerWidth='4' markerHeight='4' orient='auto'><path d='M0 0L4 2L0 4z'/></marker></defs>\r\n` +
      `<path d='M4 16H28' stroke='#000' marker-end='url("#m")' aria-label='A &#x2192; B &lt;&gt;'/>\r\n</svg>\r\n`
    assert.deepEqual(svgLogo(doc), [])
  })
})

describe('SVG: the type is read from the bytes', () => {
  const neither = 'is neither a PNG nor an SVG (the type is read from the bytes, not from the extension)'
  test('a root element other than svg is neither', () => {
    assert.deepEqual(svgLogo('<!-- <svg> --><html><svg></svg></html>'), [neither])
    assert.deepEqual(svgLogo(`<?xml version="1.0"?><svgx xmlns="${SVG_NS}"/>`), [neither])
    assert.deepEqual(svgLogo(''), [neither])
    assert.deepEqual(svgLogo(`hello ${svg()}`), [neither])
  })

  test('an SVG with a broken prolog is still an SVG, and refused as one', () => {
    assertRefused(`<?xml version="1.0" encoding="ISO-8859-1"?>${svg()}`, /must be encoded as UTF-8/)
    assert.deepEqual(tagLogo(text(`<?xml version="1.0" encoding="latin1"?>${svg()}`), 'a.png'), [
      'the bytes are SVG but the file is named .png; name it .svg',
      'SVG must be encoded as UTF-8, but its XML declaration says encoding="latin1"',
    ])
  })
})

describe('SVG: hostile input is answered quickly and briefly', () => {
  const head = `<svg xmlns="${SVG_NS}" viewBox="0 0 1 1"`
  const inputs = [
    ['a DOCTYPE of brackets', `<!DOCTYPE ${'[]'.repeat(40000)}`],
    ['unclosed comments', '<!--'.repeat(25000)],
    ['unclosed processing instructions', '<?'.repeat(50000)],
    ['many url( in a style', `${head}><style>${'url(#'.repeat(19000)}</style></svg>`],
    ['many functions in a style', `${head}><style>${'a('.repeat(45000)}</style></svg>`],
    ['many unknown attributes', `${head}${Array.from({ length: 9000 }, (_, i) => ` a${i}="1"`).join('')}/>`],
    ['a very long name', `${head}><${'a'.repeat(90000)}/></svg>`],
  ]
  for (const [what, doc] of inputs) {
    test(what, () => {
      const started = performance.now()
      const messages = svgLogo(doc)
      assert.ok(performance.now() - started < 3000, `took ${performance.now() - started} ms`)
      assert.ok(messages.length >= 1 && messages.length <= 21, JSON.stringify(messages.length))
      assert.ok(messages.every((m) => m.length < 300), JSON.stringify(messages))
    })
  }
})

describe('logo files in the repository', () => {
  test('a token logo is named after the checksummed address', () => {
    assert.deepEqual(checkLogo(png(256, 256), `testnet/logos/tokens/${BX}.png`, { kind: 'tokens' }), [])
    const lower = checkLogo(png(256, 256), `testnet/logos/tokens/${BX.toLowerCase()}.png`, { kind: 'tokens' })
    assert.deepEqual(lower.map((p) => p.message), [`logo file must be named after the checksummed address (expected ${BX}.png)`])
    const other = checkLogo(png(256, 256), 'testnet/logos/tokens/bx.png', { kind: 'tokens' })
    assert.deepEqual(other.map((p) => p.message), ['logo file must be named after the checksummed address'])
  })

  test('a tag logo may have any name', () => {
    assert.deepEqual(tagLogo(png(256, 256), 'My Project-2.png'), [])
  })

  test('every logo is referenced by the list or the tags', () => {
    const dir = copyRegistry()
    copyFileSync(join(dir, 'testnet/logos/tags/stack.svg'), join(dir, 'testnet/logos/tags/old-stack.svg'))
    const { code, output } = validate(dir)
    assert.equal(code, 1)
    assert.ok(output.includes("testnet/logos/tags/old-stack.svg: not referenced by this network's tokenlist.json or tags.json; remove it"), output)
  })

  test('logos sit in logos/tokens/ or logos/tags/', () => {
    const dir = copyRegistry()
    mkdirSync(join(dir, 'testnet/logos/misc'))
    writeFileSync(join(dir, 'testnet/logos/misc/a.svg'), svg())
    const { code, output } = validate(dir)
    assert.equal(code, 1)
    assert.ok(output.includes('testnet/logos/misc/a.svg: logos go in testnet/logos/tokens/ or testnet/logos/tags/'), output)
  })
})
