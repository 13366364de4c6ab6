#!/usr/bin/env bun
import { parseCommand, USAGE, UsageError, type Command } from './cli/args.ts'
import { dev, start } from './cli/commands.ts'
import { validate } from './cli/validate.ts'
import { ConfigError, loadConfig } from './config/load.ts'
import { StartError } from './http/serve.ts'
import { AnvilError } from './chain/anvil.ts'
import { DevnetError } from './devnet/deploy.ts'
import { SpoolIdentityError } from './spool/identity.ts'
import { SpoolFileError } from './spool/storage.ts'
import { VERSION } from './version.ts'

async function run(command: Command): Promise<void> {
  switch (command.kind) {
    case 'help':
      process.stdout.write(USAGE)
      return
    case 'version':
      process.stdout.write(`stack ${VERSION}\n`)
      return
    case 'validate':
      process.exitCode = await validate(command.args)
      return
    case 'start':
      return start(loadConfig(command.config))
    case 'dev':
      return dev(loadConfig(command.config))
  }
}

try {
  await run(parseCommand(process.argv.slice(2)))
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`stack: ${error.message}\n\n${USAGE}`)
    process.exit(2)
  }
  if (error instanceof ConfigError) {
    process.stderr.write(`stack: the config is not valid, nothing was started\n${error.message.replace(/^/gm, '  ')}\n`)
    process.exit(1)
  }
  const saidInOneLine =
    error instanceof StartError ||
    error instanceof AnvilError ||
    error instanceof DevnetError ||
    error instanceof SpoolIdentityError ||
    error instanceof SpoolFileError
  if (saidInOneLine) {
    process.stderr.write(`stack: ${error.message}\n`)
    process.exit(1)
  }
  throw error
}
