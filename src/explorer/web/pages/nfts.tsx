import { useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { useApi } from '../api.ts'
import { count, short } from '../format.ts'
import { DataTable } from '../dataTable.tsx'
import { ageColumn, countColumn, txColumn } from '../tables.tsx'
import { AddressLink, Failure, Fields, Loading, Section, Verified, WhenLoaded, offsetOf } from '../ui.tsx'
import { labelText, type LabelValue } from './tokens.tsx'
import '../tokens.css'

/** The collection answer's page of items: the API's own cap (docs/explorer.md). */
const ITEMS = 48
/** Metadata fields beyond the known ones that the item page spells out. */
const OTHER_FIELDS_SHOWN = 20
const ZERO = /^0x0{40}$/

type CollectionEntry = { address: string; name: string | null; symbol: string | null; standard: string; minted: number; transfers: number; verified: boolean; label: string | null }

type CollectionMeta = {
  address: string
  name: string | null
  symbol: string | null
  standard: string
  verified: boolean
  label: LabelValue
  minted: number
  transferCount: number
  itemCount: number
  totalSupply: string | null
}

export type Metadata = Record<string, unknown>

type Item = { tokenId: string; owner: string | null; holders: number; supply?: string; tokenURI: string | null; metadata: Metadata | null }

type NftTransferRow = { txHash: string; blockNumber: number; timestamp: number; logIndex: number; token: string; standard: string; from: string; to: string; tokenId: string; amount: string }

type Collection = CollectionMeta & { items: Item[]; transfers: NftTransferRow[] }

type Holder = { address: string | null; amount: string }

type ItemDetail = {
  collection: string
  tokenId: string
  standard: string
  owner: string | null
  holders: Holder[]
  burned: boolean
  tokenURI: string | null
  metadata: Metadata | null
  transfers: NftTransferRow[]
  collectionMeta: CollectionMeta
}

const standardName = (standard: string) => standard.replace(/^erc/i, 'ERC-')

const textOf = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null)

/** A value of the metadata as text, however it is typed, cut short: the document is the deployer's. */
function asText(value: unknown, max = 400): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value)
  return text.length > max ? `${text.slice(0, max)}…` : text
}

/** A URI as text: an inline `data:` one by its media type and size rather than its bytes. */
function uriText(uri: string): string {
  if (/^data:/i.test(uri)) return `${uri.slice(0, Math.min(uri.indexOf(',') + 1 || 40, 60))}… (${count(uri.length)} characters)`
  return uri.length > 300 ? `${uri.slice(0, 300)}…` : uri
}

/**
 * Where an image can be drawn from without the page reaching another origin (its policy forbids
 * it, and an item's metadata is written by whoever deployed the contract): an inline `data:`
 * image, or a URL that resolves to this origin. Null for anything else, which is shown as text.
 */
export function localImage(uri: unknown): string | null {
  if (typeof uri !== 'string') return null
  const text = uri.trim()
  if (/^data:image\//i.test(text)) return text
  if (/^data:/i.test(text)) return null
  try {
    const url = new URL(text, location.href)
    return url.origin === location.origin ? url.href : null
  } catch {
    return null
  }
}

/** The image an item's metadata names: what can be drawn (`src`) and, when it cannot, its URL as text. */
function imageOf(metadata: Metadata | null): { src: string | null; url: string | null } {
  if (!metadata) return { src: null, url: null }
  const named = textOf(metadata.image) ?? textOf(metadata.image_url)
  const src = localImage(named)
  if (src) return { src, url: null }
  // OpenSea's `image_data`: the SVG itself, drawn as an image, where it can load nothing.
  const svg = textOf(metadata.image_data)
  if (svg && svg.trimStart().startsWith('<')) return { src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, url: null }
  return { src: null, url: named }
}

export function ItemImage({ metadata, tokenId, alt, large = false }: { metadata: Metadata | null; tokenId: string; alt: string; large?: boolean }) {
  const { src } = imageOf(metadata)
  const [broken, setBroken] = useState<string | null>(null)
  const kind = large ? 'nft-image' : 'nft-thumb'
  if (!src || broken === src) {
    return (
      <span class={`${kind} blank`} aria-hidden="true">
        #{tokenId.length > 8 ? `${tokenId.slice(0, 6)}…` : tokenId}
      </span>
    )
  }
  return <img class={kind} src={src} alt={alt} loading="lazy" onError={() => setBroken(src)} />
}

/** The name an item goes by: its metadata's, or its collection's with its id. */
const itemName = (metadata: Metadata | null, collection: string, tokenId: string) => textOf(metadata?.name) ?? `${collection} #${tokenId}`

const collectionName = (meta: { address: string; name: string | null; label: LabelValue }) => meta.name ?? labelText(meta.label) ?? short(meta.address)

function Party({ address, moved }: { address: string; moved: 'mint' | 'burn' }) {
  if (ZERO.test(address)) return <span class="badge">{moved}</span>
  return <AddressLink address={address} />
}

function NftTransfers({ transfers, collection, showItem, labelledBy }: { transfers: NftTransferRow[]; collection: string; showItem: boolean; labelledBy: string }) {
  return (
    <DataTable
      rows={transfers}
      rowKey={(transfer) => `${transfer.txHash}:${transfer.logIndex}:${transfer.tokenId}`}
      labelledBy={labelledBy}
      columns={[
        txColumn<NftTransferRow>((transfer) => transfer.txHash),
        ageColumn<NftTransferRow>((transfer) => transfer.timestamp),
        {
          head: 'Item',
          show: showItem,
          cell: (transfer) => <a href={`/nft/${collection}/${transfer.tokenId}`}>#{transfer.tokenId.length > 12 ? short(transfer.tokenId, 5) : transfer.tokenId}</a>,
        },
        { head: 'From', cell: (transfer) => <Party address={transfer.from} moved="mint" /> },
        { head: 'To', cell: (transfer) => <Party address={transfer.to} moved="burn" /> },
        { ...countColumn<NftTransferRow>('Amount', (transfer) => transfer.amount), show: transfers.some((transfer) => transfer.standard === 'erc1155') },
      ]}
    />
  )
}

export function NftsPage() {
  const loaded = useApi<{ nfts: CollectionEntry[] }>('/nfts')
  return (
    <Section title="NFT collections" id="nfts" main>
      <WhenLoaded loaded={loaded} what="NFT collections">
        {({ nfts }) => (
          <DataTable
            rows={nfts}
            rowKey={(nft) => nft.address}
            row={(nft) => ({ 'data-address': nft.address })}
            labelledBy="nfts-title"
            empty="No NFT has moved on this chain yet."
            columns={[
              {
                head: 'Collection',
                cell: (nft) => (
                  <>
                    <a href={`/nft/${nft.address}`}>{nft.name ?? nft.label ?? nft.address}</a>
                    <Verified verified={nft.verified} />
                    {nft.label && nft.label !== nft.name ? <span class="muted small"> {nft.label}</span> : null}
                  </>
                ),
              },
              { head: 'Symbol', cell: (nft) => nft.symbol ?? <span class="muted">–</span> },
              { head: 'Standard', cell: (nft) => standardName(nft.standard) },
              countColumn<CollectionEntry>('Minted', (nft) => nft.minted),
              countColumn<CollectionEntry>('Transfers', (nft) => nft.transfers),
            ]}
          />
        )}
      </WhenLoaded>
    </Section>
  )
}

export function NftCollectionPage() {
  const { params, query } = useRoute()
  const offset = offsetOf(query)
  // Items' metadata are resolved in the background after a first view; the answer is cached as
  // long as this interval, so each reload can bring what was resolved meanwhile.
  const { data, error } = useApi<Collection>(`/nft/${encodeURIComponent(params.address ?? '')}?limit=${ITEMS}&offset=${offset}`, 15_000)
  if (error && !data) return <Failure error={error} what="NFT collection" />
  if (!data) return <Loading what="the collection" />
  const name = collectionName(data)
  const label = labelText(data.label)
  const base = `/nft/${data.address}`
  return (
    <>
      <section class="card" id="nft-collection" aria-labelledby="nft-collection-title">
        <div class="token-head">
          <h1 id="nft-collection-title">
            {name}
            {data.symbol && data.symbol !== name ? <span class="muted"> ({data.symbol})</span> : null}
          </h1>
          <Verified verified={data.verified} />
        </div>
        <Fields
          rows={[
            ['Address', <AddressLink address={data.address} full />],
            ['Standard', standardName(data.standard)],
            ['Label', label ? <span class="label" id="nft-collection-label">{label}</span> : null],
            ['Items', <span id="nft-collection-items">{count(data.itemCount)}</span>],
            ['Minted', count(data.minted)],
            ['Total supply', data.totalSupply === null ? null : count(data.totalSupply)],
            ['Transfers', count(data.transferCount)],
          ]}
        />
      </section>
      <Section title={`Items (${count(data.itemCount)})`} id="nft-items">
        {data.items.length === 0 ? (
          <p class="muted">{offset > 0 ? 'No items past this point.' : 'Nobody holds an item of this collection.'}</p>
        ) : (
          <ul class="nft-items">
            {data.items.map((item) => (
              <li key={item.tokenId} data-token-id={item.tokenId}>
                <a class="nft-card" href={`${base}/${item.tokenId}`}>
                  <ItemImage metadata={item.metadata} tokenId={item.tokenId} alt="" />
                  <span class="nft-name">{itemName(item.metadata, name, item.tokenId)}</span>
                </a>
                <span class="nft-owner small">
                  {item.owner ? (
                    <>
                      <span class="muted">Owner </span>
                      <AddressLink address={item.owner} />
                    </>
                  ) : item.holders === 0 ? (
                    <span class="badge bad">burned</span>
                  ) : (
                    <span class="muted">{count(item.holders)} holders</span>
                  )}
                  {item.supply !== undefined ? <span class="muted"> · supply {count(item.supply)}</span> : null}
                </span>
              </li>
            ))}
          </ul>
        )}
        {offset > 0 || data.itemCount > offset + ITEMS ? (
          <nav class="pager" aria-label="pages of items">
            {offset > 0 ? <a href={`${base}?offset=${Math.max(offset - ITEMS, 0)}`}>← Previous items</a> : <span />}
            <span class="muted">{data.items.length === 0 ? 'none' : `${count(offset + 1)}–${count(offset + data.items.length)} of ${count(data.itemCount)}`}</span>
            {data.itemCount > offset + ITEMS ? <a href={`${base}?offset=${offset + ITEMS}`}>Next items →</a> : <span />}
          </nav>
        ) : null}
      </Section>
      <Section title="Recent transfers" id="nft-transfers">
        {data.transfers.length === 0 ? <p class="muted">No transfers.</p> : <NftTransfers transfers={data.transfers} collection={data.address} showItem labelledBy="nft-transfers-title" />}
      </Section>
    </>
  )
}

function Attributes({ attributes }: { attributes: unknown[] }) {
  const pairs = attributes.map((attribute) => (attribute !== null && typeof attribute === 'object' ? (attribute as Record<string, unknown>) : { value: attribute }))
  return (
    <DataTable
      rows={pairs}
      rowKey={(_pair, index) => index}
      labelledBy="nft-attributes-title"
      columns={[
        { head: 'Trait', cell: (pair) => (pair.trait_type === undefined ? <span class="muted">–</span> : asText(pair.trait_type, 80)) },
        { head: 'Value', class: 'nft-value', cell: (pair) => asText(pair.value, 200) },
      ]}
    />
  )
}

const KNOWN_FIELDS = new Set(['name', 'description', 'image', 'image_url', 'image_data', 'attributes'])

export function NftItemPage() {
  const { params } = useRoute()
  const path = `/nft/${encodeURIComponent(params.address ?? '')}/${encodeURIComponent(params.tokenId ?? '')}`
  const { data, error } = useApi<ItemDetail>(path)
  if (error) return <Failure error={error} what="NFT" />
  if (!data) return <Loading what="the item" />
  const meta = data.collectionMeta
  const collection = collectionName(meta)
  const metadata = data.metadata
  const title = itemName(metadata, collection, data.tokenId)
  const image = imageOf(metadata)
  const description = textOf(metadata?.description)
  const attributes = Array.isArray(metadata?.attributes) ? (metadata.attributes as unknown[]) : []
  const others = metadata ? Object.entries(metadata).filter(([key]) => !KNOWN_FIELDS.has(key)) : []
  const single = data.owner !== null && data.holders.length === 1 && data.standard === 'erc721'
  return (
    <>
      <section class="card" id="nft-item" aria-labelledby="nft-item-title">
        <h1 id="nft-item-title">{title}</h1>
        <div class="nft-item">
          <ItemImage metadata={metadata} tokenId={data.tokenId} alt={title} large />
          <Fields
            rows={[
              [
                'Collection',
                <>
                  <a href={`/nft/${data.collection}`} id="nft-item-collection">
                    {collection}
                  </a>
                  <Verified verified={meta.verified} />
                </>,
              ],
              ['Token id', <span class="mono wrap">{data.tokenId}</span>],
              ['Standard', standardName(data.standard)],
              ['Owner', single ? <span id="nft-owner"><AddressLink address={data.owner} full /></span> : null],
              ['Status', data.burned ? <span class="badge bad" id="nft-burned">burned</span> : null],
              ['Description', description ? <span class="nft-description">{asText(description, 2000)}</span> : null],
              ['Image', image.url ? <span class="mono wrap small" id="nft-image-url">{uriText(image.url)}</span> : null],
              ['Token URI', data.tokenURI ? <span class="mono wrap small" title={data.tokenURI.length > 300 ? undefined : data.tokenURI}>{uriText(data.tokenURI)}</span> : <span class="muted">the contract gives none</span>],
              [
                'Metadata',
                metadata ? null : (
                  <span class="muted">
                    {data.tokenURI ? 'not read (only data: URIs and public http(s) documents are)' : 'none'}
                  </span>
                ),
              ],
            ]}
          />
        </div>
      </section>
      {single ? null : (
        <Section title={`Holders (${count(data.holders.length)})`} id="nft-holders">
          <DataTable
            rows={data.holders}
            rowKey={(holder, index) => holder.address ?? index}
            labelledBy="nft-holders-title"
            empty="Nobody holds this item: it was burned."
            columns={[{ head: 'Holder', cell: (holder) => <AddressLink address={holder.address} full /> }, countColumn<Holder>('Amount', (holder) => holder.amount)]}
          />
        </Section>
      )}
      {attributes.length > 0 ? (
        <Section title="Attributes" id="nft-attributes">
          <Attributes attributes={attributes} />
        </Section>
      ) : null}
      {others.length > 0 ? (
        <Section title="More metadata" id="nft-metadata">
          <Fields rows={others.slice(0, OTHER_FIELDS_SHOWN).map(([key, value]): [string, string] => [key, asText(value)])} />
          {others.length > OTHER_FIELDS_SHOWN ? <p class="muted">and {count(others.length - OTHER_FIELDS_SHOWN)} more fields.</p> : null}
        </Section>
      ) : null}
      <Section title="Transfers" id="nft-item-transfers">
        {data.transfers.length === 0 ? <p class="muted">No transfers.</p> : <NftTransfers transfers={data.transfers} collection={data.collection} showItem={false} labelledBy="nft-item-transfers-title" />}
      </Section>
    </>
  )
}
