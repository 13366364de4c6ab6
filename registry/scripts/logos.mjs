// @ts-check
/**
 * The rules of one logo file: its type read from the bytes, its size, PNG dimensions, SVG content
 * and, for token logos, its name.
 */
import { isAddress, toChecksumAddress } from './keccak.mjs'
import { Report } from './problems.mjs'

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
  const text = svgText(bytes)
  const prolog = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*|<!DOCTYPE[^[>]*(?:\[[\s\S]*?\])?\s*>\s*)*<svg[\s>]/i
  return prolog.test(text) ? 'svg' : null
}

/** @param {Uint8Array} bytes */
function svgText(bytes) {
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '')
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
  else checkSvg(report, svgText(bytes))
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

const EXTERNAL_MESSAGE = 'SVG must not reference external resources'

/**
 * A logo is shown inline on the stack's sites, so it must be a plain drawing: nothing that runs,
 * embeds HTML, or makes the browser fetch anything. The scans run over the whole text rather than
 * over parsed elements: a false alarm costs a contributor an edit, a miss could run code.
 * @param {Report} report @param {string} text
 */
function checkSvg(report, text) {
  if (/<!DOCTYPE/i.test(text)) report.add([], 'SVG must not contain a DOCTYPE (entities can pull in other files)')
  if (/<([\w.-]+:)?script[\s/>]/i.test(text)) report.add([], 'SVG must not contain a script element')
  if (/<([\w.-]+:)?foreignObject[\s/>]/i.test(text)) report.add([], 'SVG must not contain a foreignObject element')
  const handlers = new Set([...text.matchAll(/(?:^|[\s"'/])(on[a-z]+)\s*=/gi)].map((m) => m[1]))
  if (handlers.size) report.add([], `SVG must not have event-handler attributes (${[...handlers].join(', ')})`)
  if (/javascript:/i.test(text)) report.add([], 'SVG must not contain javascript: URLs')
  if (hasExternalReference(text)) report.add([], EXTERNAL_MESSAGE)
  checkSvgSquare(report, text)
}

/** Only same-document #fragments and inline raster images are allowed. @param {string} reference */
function isInlineReference(reference) {
  return reference.startsWith('#') || /^data:image\/(png|jpeg|gif|webp)[;,]/i.test(reference)
}

/** @param {string} text */
function hasExternalReference(text) {
  const attributes = text.matchAll(/(?:^|[\s"'/])(?:[\w.-]+:)?(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)
  for (const match of attributes) {
    if (!isInlineReference((match[1] ?? match[2] ?? match[3] ?? '').trim())) return true
  }
  for (const match of text.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\s*\)/gi)) {
    if (!isInlineReference((match[1] ?? match[2] ?? match[3] ?? '').trim())) return true
  }
  // @import fetches a style sheet; an animation of href can point the drawing elsewhere later.
  return /@import/i.test(text) || /attributeName\s*=\s*["']?(?:[\w.-]+:)?href/i.test(text)
}

/** Logos are square; an SVG needs a viewBox to scale to 20 pixels and to 256. @param {Report} report @param {string} text */
function checkSvgSquare(report, text) {
  const root = /<svg\b[^>]*>/i.exec(text)?.[0] ?? ''
  const viewBox = /\sviewBox\s*=\s*["']([^"']*)["']/i.exec(root)?.[1]
  if (viewBox === undefined) {
    report.add([], 'SVG needs a viewBox on its svg element so that it scales')
    return
  }
  const [, , width, height] = viewBox.trim().split(/[\s,]+/).map(Number)
  if (!(Number(width) > 0) || width !== height) report.add([], `SVG viewBox is "${viewBox}"; a logo must be square`)
}
