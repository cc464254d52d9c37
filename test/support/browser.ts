// A real headless Chromium (Debian's `chromium`, driven by playwright-core: no browser can be
// downloaded here), for the console's tests. playwright-core gives each launch a fresh profile.
import { chromium, type Browser } from 'playwright-core'

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
