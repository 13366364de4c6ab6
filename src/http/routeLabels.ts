/** A route as the app declares it: Elysia's `app.routes` entries carry these two. */
export type DeclaredRoute = { method: string; path: string }

type Node = { fixed: Map<string, Node>; param: Node | null; rest: string | null; pattern: string | null }

const node = (): Node => ({ fixed: new Map(), param: null, rest: null, pattern: null })

/**
 * The pattern of the route a path matches (`/api/tx/:hash` for `/api/tx/0xab...`), or null when
 * none does. A metric's label is the pattern, never the path a client wrote, so no client can
 * make the labels grow. Built once from the routes an app declares; a fixed path is one map
 * lookup, one with parameters a walk of its segments. A trailing slash matches as Elysia's loose
 * paths do.
 */
export function routeLabels(routes: readonly DeclaredRoute[]): (path: string) => string | null {
  const fixed = new Map<string, string>()
  const root = node()
  for (const { path } of routes) {
    if (!path.includes(':') && !path.includes('*')) {
      fixed.set(path, path)
      continue
    }
    let at = root
    let rest = false
    for (const segment of path.split('/').slice(1)) {
      if (segment === '*') {
        at.rest ??= path
        rest = true
        break
      }
      if (segment.startsWith(':')) at = at.param ??= node()
      else at = at.fixed.get(segment) ?? at.fixed.set(segment, node()).get(segment)!
    }
    if (!rest) at.pattern ??= path
  }
  const walk = (at: Node, segments: string[], index: number): string | null => {
    if (index === segments.length) return at.pattern
    const segment = segments[index]!
    const exact = at.fixed.get(segment)
    const found = (exact && walk(exact, segments, index + 1)) || (at.param && segment !== '' && walk(at.param, segments, index + 1))
    return found || at.rest
  }
  return (path) => {
    const known = fixed.get(path)
    if (known !== undefined) return known
    const loose = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : null
    if (loose !== null && fixed.has(loose)) return fixed.get(loose)!
    return walk(root, (loose ?? path).split('/'), 1)
  }
}
