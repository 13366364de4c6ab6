// The faucet page: reads the status, checks an address as it is typed, asks for a drip, and
// says what happened in plain words. Plain browser JavaScript; Bun bundles it with the duration
// formatting it shares with the server (src/browser/bundle.ts) into the executable. Every text
// goes in through textContent.
import { durationInWords as duration } from '../../format/duration.ts'

const ADDRESS = /^(0x)?[0-9a-fA-F]{40}$/
const $ = (id) => document.getElementById(id)

function amounts(status) {
  const symbol = status.treasuryBxFmt.split(' ').pop()
  return `${status.ethAmountEth} ETH and ${status.bxAmountBx} ${symbol}`
}

async function getJson(url, options) {
  const response = await fetch(url, options)
  let body = {}
  try {
    body = await response.json()
  } catch {
    // A body that is not JSON says nothing more than the status.
  }
  return { status: response.status, body }
}

async function showStatus() {
  try {
    const { status, body } = await getJson('status')
    if (status !== 200) throw new Error(body.error || `status ${status}`)
    $('amounts').textContent = amounts(body)
    $('lead-amounts').textContent = amounts(body)
    $('cooldown').textContent = `once every ${duration(body.cooldown)} per address`
    $('treasury').textContent = `${body.treasuryEthFmt} and ${body.treasuryBxFmt}`
    $('block').textContent = `#${body.evmBlock}`
  } catch (error) {
    $('treasury').textContent = `unknown right now (${error.message})`
  }
}

let checkTimer
// Each check, and each drip, takes the next number: an answer to an older one is not shown. A
// check answered while a drip was in flight would count that drip's own open reservation (the
// address's quota "reached" by the drip the page is waiting on), and say so after it was settled.
let checks = 0
function checkAddress() {
  clearTimeout(checkTimer)
  const asked = ++checks
  const text = $('address').value.trim()
  const check = $('address-check')
  if (text === '') return (check.textContent = '')
  if (!ADDRESS.test(text)) return (check.textContent = 'This does not look like an address yet.')
  check.textContent = ''
  checkTimer = setTimeout(async () => {
    try {
      const { status, body } = await getJson(`status?address=${encodeURIComponent(text)}`)
      if (asked !== checks || $('address').value.trim() !== text) return
      if (status === 400) check.textContent = 'This is not a valid address: check it for typos.'
      else if (status !== 200) check.textContent = ''
      else if (body.canDrip) check.textContent = 'This address can receive a drip now.'
      else if (body.quota) check.textContent = `Limit reached: ${QUOTAS[body.quota] || body.quota}.${resetNote(body.quota)}`
      else check.textContent = `This address had a drip recently. It can have another in ${duration(body.retryIn)}.`
    } catch {
      check.textContent = ''
    }
  }, 300)
}

/** What each of the faucet's own quotas means, by the name a 429 or a status gives it. */
const QUOTAS = {
  client: 'your network has had its 5 drips for today',
  address: 'this address has had its 2 drips for today',
  global: 'the faucet has paid all the drips it pays in a day',
  allTime: 'the faucet has paid all the drips it will ever pay',
}

const resetNote = (quota) => (quota === 'allTime' ? '' : ' The daily limits reset at 00:00 UTC.')

function explain(status, body) {
  const message = body.error || ''
  switch (status) {
    case 400:
      return 'That is not a valid address. An address starts with 0x, followed by 40 letters and digits.'
    case 409:
      return `This address already had a drip in the last day. It can have another in ${duration(body.retryIn || 0)}.`
    case 429:
      return `Limit reached: ${QUOTAS[body.quota] || message}.${resetNote(body.quota)}`
    case 502:
      return 'The faucet cannot reach the chain right now. Nothing was sent; please try again in a minute.'
    case 503:
      if (message === 'no receipt yet') return 'The transaction was sent but is not confirmed yet. It may still arrive: check your balance in a minute.'
      if (message === 'drip failed') return 'The chain refused the transaction, so nothing was sent. Please try again later.'
      if (message.startsWith('faucet empty')) return `The faucet has run dry (${message.replace(/^faucet empty: /, '')}). Please try again later.`
      return `The faucet is not available right now (${message}).`
    default:
      return `Something went wrong (status ${status}${message ? `: ${message}` : ''}).`
  }
}

function showResult(kind, text, hash) {
  const result = $('result')
  result.className = `result ${kind}`
  result.replaceChildren()
  const paragraph = document.createElement('p')
  paragraph.textContent = text
  result.append(paragraph)
  if (hash) {
    const code = document.createElement('code')
    code.id = 'tx-hash'
    code.textContent = hash
    result.append(code)
  }
  result.hidden = false
}

async function drip(event) {
  event.preventDefault()
  const address = $('address').value.trim()
  if (!ADDRESS.test(address)) {
    showResult('bad', explain(400, {}))
    $('address').focus()
    return
  }
  // The address is checked again once the drip has its answer, whatever it is.
  clearTimeout(checkTimer)
  checks++
  const button = $('drip')
  button.disabled = true
  button.textContent = 'Sending…'
  showResult('', 'Sending the transaction and waiting for it to be confirmed. This takes a few seconds.')
  try {
    const { status, body } = await getJson('drip', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address }),
    })
    if (status === 200) {
      showResult('good', `Sent! ${$('amounts').textContent} are on their way to ${body.address}. Transaction:`, body.hash)
      void showStatus()
    } else {
      showResult('bad', explain(status, body), body.hash)
    }
  } catch {
    showResult('bad', 'The faucet did not answer. Check your connection and try again.')
  } finally {
    button.disabled = false
    button.textContent = 'Send me test funds'
    checkAddress()
  }
}

$('drip-form').addEventListener('submit', drip)
$('address').addEventListener('input', checkAddress)
void showStatus()
