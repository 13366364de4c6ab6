#!/usr/bin/env bun
import { parseCommand, USAGE, UsageError, type Command } from './cli/args.ts'
import { onShutdown } from './cli/shutdown.ts'
import { ConfigError, loadConfig } from './config/load.ts'
import { StartError } from './http/serve.ts'
import { createLogger } from './log.ts'
import { startServices } from './services.ts'
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
      // The registry validator (registry/scripts/validate.mjs) is not part of the build yet.
      throw new StartError('validate: the registry validator is not available in this build yet')
    case 'start':
    case 'dev': {
      const config = loadConfig(command.config)
      const log = createLogger({ level: config.log.level })
      log.info({ version: VERSION, config: config.file ?? '(defaults)', dataDir: config.dataDir }, 'starting')
      if (command.kind === 'dev') {
        log.warn({ rpc: config.chain.rpc }, 'dev: no local chain is started yet; the services use chain.rpc')
      }
      const listening = await startServices({ config, log })
      onShutdown(log, [() => Promise.all(listening.map((service) => service.stop())).then(() => undefined)])
      return
    }
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
  if (error instanceof StartError) {
    process.stderr.write(`stack: ${error.message}\n`)
    process.exit(1)
  }
  throw error
}
