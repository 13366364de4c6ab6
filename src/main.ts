#!/usr/bin/env bun
import { parseCommand, USAGE, UsageError, type Command } from './cli/args.ts'
import { dev, start } from './cli/commands.ts'
import { dbImport } from './cli/dbImport.ts'
import { reset, status } from './cli/operator.ts'
import { validate } from './cli/validate.ts'
import { ConfigError, loadConfig } from './config/load.ts'
import { FatalError } from './errors.ts'
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
      return start(loadConfig(command.config), command)
    case 'dev':
      return dev(loadConfig(command.config), command)
    case 'status':
      process.exitCode = await status(loadConfig(command.config), command.format)
      return
    case 'reset':
      process.exitCode = await reset(loadConfig(command.config))
      return
    case 'db-import':
      return dbImport(loadConfig(command.config), (line) => process.stdout.write(`${line}\n`))
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
  // Everything that stops the stack before it serves (a port taken, another chain, a damaged
  // spool, a dev chain that would not start) says so in one line.
  if (error instanceof FatalError) {
    process.stderr.write(`stack: ${error.message}\n`)
    process.exit(1)
  }
  throw error
}
