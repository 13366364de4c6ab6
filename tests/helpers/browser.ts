import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

/** Debian's Chromium; `npm test` installs it first when it is missing (tests/chromium.sh). */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

/** Headless, and quiet on a machine with no network beyond the registries. */
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: run npm test (it installs Debian's chromium), or apt-get install chromium, or set CHROMIUM_PATH`)
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS })
}
