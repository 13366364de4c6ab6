import { useState } from 'preact/hooks'
import { encodeFunctionData, parseEther, type AbiFunction, type AbiParameter } from 'viem'
import { ApiError, getJson } from '../api.ts'
import { count } from '../format.ts'
import { AddressLink, Fields, TxLink } from '../ui.tsx'
import type { CallAnswer, ContractAnswer } from '../../../answers/contract.ts'
import type { DecodedValue } from '../types.ts'
import { functionsOf, InputError, isRead, parseInput, placeholderOf, signatureOf } from '../contract/abi.ts'
import { CopyButton, SourceFile } from '../contract/source.tsx'
import { chainInfo, connect, injectedWallet, send, switchChain, walletMessage } from '../contract/wallet.ts'
import { Value } from './txs.tsx'
import { CONTRACT_TABS, MatchWords, type ContractTab } from './contractWords.tsx'

/** The standards a proxy is read by, as people write them. */
const PROXY_KINDS: Record<string, string> = { eip1967: 'An EIP-1967', 'eip1967-beacon': 'An EIP-1967 beacon', eip1822: 'An EIP-1822', eip1167: 'An EIP-1167 minimal', recorded: 'A' }

/**
 * The Code, Read and Write tabs of a contract the stack knows, below its address card. This
 * module and the libraries only it needs (the highlighter, viem's encoding) are a chunk of their
 * own, loaded when an address page first shows a contract (`./contractWords.tsx`).
 */
export function ContractTabs({ info, tab, base }: { info: ContractAnswer; tab: ContractTab; base: string }) {
  return (
    <section class="card" id="contract" aria-labelledby="contract-title">
      <h2 id="contract-title" class="visually-hidden">Contract</h2>
      <nav class="tabs" role="tablist" aria-label="contract">
        {CONTRACT_TABS.map(([id, name]) => (
          <a key={id} id={`tab-${id}`} role="tab" href={`${base}?tab=${id}`} aria-selected={tab === id} class={tab === id ? 'tab current' : 'tab'}>
            {name}
          </a>
        ))}
      </nav>
      <div role="tabpanel" aria-labelledby={`tab-${tab}`} id={`panel-${tab}`}>
        {tab === 'code' ? <CodeTab info={info} /> : <CallTab info={info} write={tab === 'write'} />}
      </div>
    </section>
  )
}

function CodeTab({ info }: { info: ContractAnswer }) {
  const libraries = Object.entries(info.libraries ?? {})
  const abiText = info.abi ? JSON.stringify(info.abi, null, 2) : ''
  return (
    <>
      <Fields
        rows={[
          ['Contract', info.name ? <strong id="contract-name">{info.name}</strong> : null],
          ['Match', info.by || !info.proxy ? <span id="contract-match"><MatchWords match={info.match} by={info.by} /></span> : null],
          ['Compiler', info.compilerVersion ? <span class="mono" id="contract-compiler">{info.compilerVersion}</span> : null],
          ['Optimizer', info.optimizer ? <span id="contract-optimizer">{info.optimizer.enabled ? `on, ${count(info.optimizer.runs)} runs` : 'off'}</span> : null],
          ['EVM version', info.evmVersion ? <span id="contract-evm">{info.evmVersion}</span> : info.compilerVersion ? 'the compiler’s default' : null],
          ['Licence', info.licence],
          ['Constructor arguments', info.constructorArguments ? <span class="mono wrap small">0x{info.constructorArguments}</span> : null],
          ['Libraries', libraries.length > 0 ? <ul class="plain">{libraries.map(([name, address]) => <li key={name}><span class="mono">{name}</span>: <AddressLink address={address} full="unnamed" /></li>)}</ul> : null],
          ['Proxy', info.proxy ? <>{PROXY_KINDS[info.proxy.kind] ?? info.proxy.kind} proxy to <AddressLink address={info.proxy.implementation} full="unnamed" />{info.proxy.name ? ` (${info.proxy.name})` : ''}</> : null],
        ]}
      />
      <h3>Source {info.sources && info.sources.length > 1 ? <span class="muted small">({info.sources.length} files)</span> : null}</h3>
      {info.sources && info.sources.length > 0 ? (
        <div class="sources" id="contract-sources">
          {info.sources.map((source, index) => (
            <SourceFile key={source.path} path={source.path} content={source.content} open={index === mainSource(info)} />
          ))}
        </div>
      ) : info.abi ? (
        <p class="muted">No source is known for this contract: only its ABI.</p>
      ) : (
        <p class="muted">
          Nothing is known of this proxy's own code; its implementation's is on <AddressLink address={info.proxy?.implementation} />'s page.
        </p>
      )}
      {info.abi ? (
        <>
          <h3>
            ABI <CopyButton text={JSON.stringify(info.abi)} what="the ABI" />
          </h3>
          <pre class="abi" id="contract-abi" tabIndex={0}>
            {abiText}
          </pre>
        </>
      ) : null}
    </>
  )
}

/** The file that declares the contract, opened first; the first file when none says so. */
function mainSource(info: ContractAnswer): number {
  const declares = new RegExp(`\\b(contract|library|interface)\\s+${info.name ?? '\\0'}\\b`)
  const index = info.sources?.findIndex((source) => declares.test(source.content)) ?? -1
  return Math.max(index, 0)
}

/** The functions the tab offers: behind a proxy, the implementation's first (called through the proxy). */
function CallTab({ info, write }: { info: ContractAnswer; write: boolean }) {
  const functions = functionsOf([info.proxy?.abi, info.abi]).filter((item) => isRead(item) !== write)
  const [account, setAccount] = useState<string | null>(null)
  return (
    <>
      {info.proxy?.abi ? (
        <p class="muted" id="contract-proxy-note">
          Through this proxy, as its implementation {info.proxy.name ?? ''} <AddressLink address={info.proxy.implementation} /> {write ? 'would run them' : 'answers them'}.
        </p>
      ) : null}
      {write ? <WalletBar account={account} onAccount={setAccount} /> : null}
      {functions.length === 0 ? <p class="muted">The ABI has no function to {write ? 'send' : 'read'}.</p> : null}
      <div class="functions">
        {functions.map((item) => (
          <FunctionForm key={signatureOf(item)} address={info.address} item={item} write={write} account={account} />
        ))}
      </div>
    </>
  )
}

function WalletBar({ account, onAccount }: { account: string | null; onAccount: (account: string) => void }) {
  const [error, setError] = useState<string | null>(null)
  const wallet = injectedWallet()
  if (!wallet) return <p class="muted" id="wallet-missing">No browser wallet found: sending needs one (an extension that injects <code>window.ethereum</code>). The page never holds a key.</p>
  return (
    <div class="wallet" id="wallet">
      {account ? (
        <p>
          Sending from <AddressLink address={account} full="unnamed" />
        </p>
      ) : (
        <button type="button" id="wallet-connect" onClick={() => connect(wallet).then(onAccount, (failure: unknown) => setError(walletMessage(failure)))}>
          Connect a wallet
        </button>
      )}
      {error ? <p class="failure" role="alert">{error}</p> : null}
    </div>
  )
}

type Outcome = { kind: 'busy' } | { kind: 'read'; answer: CallAnswer } | { kind: 'sent'; hash: string } | { kind: 'failed'; message: string }

function FunctionForm({ address, item, write, account }: { address: string; item: AbiFunction; write: boolean; account: string | null }) {
  const payable = item.stateMutability === 'payable' || (item as { payable?: boolean }).payable === true
  const [values, setValues] = useState<string[]>(() => item.inputs.map(() => ''))
  const [value, setValue] = useState('')
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const signature = signatureOf(item)
  const key = signature.replace(/[^A-Za-z0-9_]+/g, '-')

  const submit = async () => {
    setOutcome({ kind: 'busy' })
    try {
      const args = item.inputs.map((input: AbiParameter, index) => parseInput(input, values[index] ?? '', input.name || `#${index + 1}`))
      const data = encodeFunctionData({ abi: [item], functionName: item.name, args })
      if (!write) {
        const answer = await getJson<CallAnswer>(`/address/${address}/call?data=${data}`)
        setOutcome({ kind: 'read', answer })
        return
      }
      const wallet = injectedWallet()
      if (!wallet || !account) throw new InputError('Connect a wallet first.')
      let wei = 0n
      if (payable && value.trim() !== '') {
        try {
          wei = parseEther(value.trim())
        } catch {
          throw new InputError('value: an amount of ETH, such as 0.5')
        }
      }
      await switchChain(wallet, chainInfo())
      setOutcome({ kind: 'sent', hash: await send(wallet, { from: account, to: address, data, value: wei }) })
    } catch (error) {
      const message = error instanceof InputError || error instanceof ApiError ? error.message : write ? walletMessage(error) : String(error)
      setOutcome({ kind: 'failed', message })
    }
  }

  return (
    <form
      class="function"
      data-function={item.name}
      id={`${write ? 'write' : 'read'}-${key}`}
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      <h3 class="mono">{signature}</h3>
      {item.inputs.map((input, index) => {
        const id = `${write ? 'w' : 'r'}-${key}-${index}`
        return (
          <label key={id} for={id} class="input">
            <span>
              {input.name || `#${index + 1}`} <code>{input.type}</code>
            </span>
            <input
              id={id}
              name={input.name || `arg${index}`}
              value={values[index]}
              placeholder={placeholderOf(input)}
              autocomplete="off"
              spellcheck={false}
              onInput={(event) => setValues(values.map((old, at) => (at === index ? event.currentTarget.value : old)))}
            />
          </label>
        )
      })}
      {write && payable ? (
        <label for={`w-${key}-value`} class="input">
          <span>
            value <code>ETH</code>
          </span>
          <input id={`w-${key}-value`} value={value} placeholder="0" inputMode="decimal" onInput={(event) => setValue(event.currentTarget.value)} />
        </label>
      ) : null}
      <button type="submit" disabled={outcome?.kind === 'busy' || (write && !account)}>
        {write ? 'Send' : 'Read'}
      </button>
      <Result outcome={outcome} />
    </form>
  )
}

function Result({ outcome }: { outcome: Outcome | null }) {
  if (!outcome) return null
  if (outcome.kind === 'busy') return <p class="muted result" role="status">Working…</p>
  if (outcome.kind === 'failed') return <p class="failure result" role="alert">{outcome.message}</p>
  if (outcome.kind === 'sent') {
    return (
      <p class="result" role="status">
        Sent: <TxLink hash={outcome.hash} full /> <span class="muted">(its page shows it once it is mined and indexed)</span>
      </p>
    )
  }
  const { answer } = outcome
  if (answer.reverted) return <p class="failure result" role="alert">Reverted: {answer.revertReason?.message ?? 'no reason given'}</p>
  if (!answer.outputs) return <p class="result mono wrap" role="status">{answer.result} <span class="muted">(did not decode as the ABI says)</span></p>
  if (answer.outputs.length === 0) return <p class="result muted" role="status">Returned nothing.</p>
  return (
    <div role="status" class="result">
      <dl class="args">
        {answer.outputs.map((output, index) => (
          <div key={index}>
            <dt>
              {output.name || `#${index + 1}`} <code>{output.type}</code>
            </dt>
            <dd class="output">
              <Value value={output.value as DecodedValue} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  )
}
