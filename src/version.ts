/** The harness version, read once from package.json (recorded in run manifests and baselines). */
import { readFileSync } from 'node:fs'

/** Root of the installed package (holds `package.json` and `fixtures/`). */
export const PACKAGE_ROOT: URL = new URL('../', import.meta.url)

const packageJson = JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT), 'utf8')) as { version: string }

/** `version` of package.json. */
export const HARNESS_VERSION: string = packageJson.version
