import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { main } from '../../registry/scripts/validate.mjs'

/**
 * `stack validate [PATH] [options]`: the registry's own validator, compiled into the binary.
 * With no PATH it checks ./registry, the repository inside a checkout of this project.
 */
export async function validate(args: string[]): Promise<number> {
  let positionals: string[] = []
  try {
    ;({ positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: false,
    }))
  } catch {
    // The validator reports malformed options itself.
  }
  return main(positionals.length > 0 ? args : [...args, resolve('registry')])
}
