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
    ['an animated href', '<a><set attributeName="href" to="#x"/></a>', external],
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
      '<rect width="10" height="10" fill="url(#g)" style="stroke: url( \'#g\' )"/><use href="#p"/><use xlink:href="#p"/>' +
      '<image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/><text>only on demand</text>'
    assert.deepEqual(tagLogo(text(svg(markup))), [])
  })

  test('is square and scalable', () => {
    assert.deepEqual(tagLogo(text('<svg viewBox="0 0 256 128"><rect width="1" height="1"/></svg>')), ['SVG viewBox is "0 0 256 128"; a logo must be square'])
    assert.deepEqual(tagLogo(text('<svg width="256" height="256"><rect width="1" height="1"/></svg>')), ['SVG needs a viewBox on its svg element so that it scales'])
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
