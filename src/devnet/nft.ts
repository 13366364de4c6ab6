const PALETTE = ['#e4572e', '#29335c', '#f3a712', '#669bbc', '#a8c686', '#8338ec']

/**
 * The tokenURI of demo item `index`: ERC-721 metadata JSON with an SVG image, both as data:
 * URIs, so that the explorer shows the item with no network. The same index gives the same URI.
 */
export function demoTokenUri(index: number): string {
  const fill = PALETTE[index % PALETTE.length]
  const accent = PALETTE[(index * 2 + 1) % PALETTE.length]
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">` +
    `<rect width="64" height="64" fill="${fill}"/>` +
    `<circle cx="32" cy="32" r="${10 + index * 3}" fill="${accent}"/>` +
    `<text x="32" y="38" font-size="16" text-anchor="middle" fill="#fff">${index}</text></svg>`
  const metadata = {
    name: `Sketch #${index}`,
    description: 'A demo item of the local dev chain.',
    image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    attributes: [
      { trait_type: 'colour', value: fill },
      { trait_type: 'size', value: 10 + index * 3 },
    ],
  }
  return `data:application/json;base64,${Buffer.from(JSON.stringify(metadata)).toString('base64')}`
}
