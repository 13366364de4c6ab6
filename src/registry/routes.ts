import { Elysia } from 'elysia'
import { dirname } from 'node:path'
import type { ServiceContext } from '../context.ts'
import { NotFoundError, UnavailableError } from '../errors.ts'
import { RegistryCopy, type Logo, type RegistryFileName } from './copy.ts'
import { keptRegistryDir } from './kept.ts'
import { builtInRegistry, registrySource, type WhileAbsent } from './source.ts'

/** SVG logos are served as images that can do nothing: no script, no fetch, no form. */
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

/** The explorer's registry copy, made from the config and started. */
export function createRegistryCopy({ config, log }: ServiceContext): RegistryCopy {
  const { source, network, rawBase } = config.registry
  const whileAbsent: WhileAbsent = {
    builtIn: builtInRegistry,
    onAbsent: (absent, folder) => {
      if (absent) log.warn({ component: 'registry', folder }, 'the registry folder does not exist: the registry built into stack serves until it does')
      else log.info({ component: 'registry', folder }, 'the registry folder exists: it is read from now on')
    },
  }
  const copy = new RegistryCopy({
    source: registrySource(source, config.file ? dirname(config.file) : process.cwd(), whileAbsent),
    network,
    rawBase,
    dir: keptRegistryDir(config),
    log,
  })
  copy.loadFromDisk()
  return copy
}

/**
 * The registry routes (docs/http.md "Routes") under the explorer's /api: the last validated token list and tags (503
 * until a first good copy exists) and the logos they reference (a JSON 404 when the address is
 * not listed or has no logo). The copy refreshes every registry.refreshSeconds while the
 * explorer runs.
 */
export function registryRoutes(copy: RegistryCopy, refreshSeconds: number) {
  const file = (name: RegistryFileName) => {
    const served = copy.file(name)
    if (!served) throw new UnavailableError(`no validated copy of ${name} yet`)
    return new Response(served.text, { headers: { 'content-type': 'application/json;charset=utf-8' } })
  }
  const logo = (found: Logo | null, what: string) => {
    if (!found) throw new NotFoundError(`no ${what} logo for this address`)
    const headers: Record<string, string> = { 'content-type': found.contentType }
    if (found.contentType === 'image/svg+xml') headers['content-security-policy'] = SVG_POLICY
    return new Response(found.bytes, { headers })
  }
  return new Elysia({ name: 'registry-routes' })
    .decorate('registry', copy)
    .onStart(() => copy.start(refreshSeconds * 1000))
    .onStop(() => copy.stop())
    .get('/tokenlist', () => file('tokenlist.json'))
    .get('/tags', () => file('tags.json'))
    .get('/tokenlogo/:address', ({ params }) => logo(copy.tokenLogo(params.address), 'token'))
    .get('/taglogo/:address', ({ params }) => logo(copy.tagLogo(params.address), 'tag'))
}
