import { describe, expect, test } from 'bun:test'
import { render } from 'preact-render-to-string'
import { DataTable, type Column } from './dataTable.tsx'

type Row = { id: string; amount: number; failed: boolean }

const rows: Row[] = [
  { id: 'a', amount: 12, failed: false },
  { id: 'b', amount: 3, failed: true },
]
const columns: Array<Column<Row>> = [
  { head: 'Id', cell: (row) => row.id, title: (row) => `row ${row.id}` },
  { head: 'Amount', cell: (row) => String(row.amount), number: true, class: 'stacked' },
  { head: 'Hidden', cell: () => 'never', show: false },
  { head: 'Rank', cell: (_row, index) => String(index + 1), number: true },
]

describe('DataTable', () => {
  test('draws the heading and a row a record in a box that scrolls, figures right-aligned', () => {
    const html = render(<DataTable rows={rows} columns={columns} rowKey={(row) => row.id} row={(row) => ({ class: row.failed ? 'failed' : undefined, 'data-id': row.id })} />)
    expect(html).toBe(
      '<div class="scroll"><table><thead><tr><th>Id</th><th class="number">Amount</th><th class="number">Rank</th></tr></thead><tbody>' +
        '<tr data-id="a"><td title="row a">a</td><td class="number stacked">12</td><td class="number">1</td></tr>' +
        '<tr class="failed" data-id="b"><td title="row b">b</td><td class="number stacked">3</td><td class="number">2</td></tr>' +
        '</tbody></table></div>',
    )
  })

  test('says its empty line in place of the table, and draws an empty table without one', () => {
    expect(render(<DataTable rows={[]} columns={columns} rowKey={(row) => row.id} empty="No rows yet." />)).toBe('<p class="muted">No rows yet.</p>')
    expect(render(<DataTable rows={[]} columns={columns} rowKey={(row) => row.id} />)).toContain('<tbody></tbody>')
  })

  test('a dense table, named by its heading, with the pager of its page under it', () => {
    const html = render(<DataTable rows={rows} columns={columns} rowKey={(row) => row.id} dense labelledBy="things-title" pager={{ base: '/things', offset: 2, limit: 2 }} />)
    expect(html).toStartWith('<div class="scroll"><table class="dense" aria-labelledby="things-title">')
    expect(html).toEndWith(
      '</table></div><nav class="pager" aria-label="pages"><a href="/things?offset=0">← Newer</a><span class="muted">3–4</span><a href="/things?offset=4">Older →</a></nav>',
    )
  })

  test('the pager of an empty page leaves the saying to the empty line, offers no older page, and says when it is past the end', () => {
    const html = render(<DataTable rows={[]} columns={columns} rowKey={(row) => row.id} empty="No rows." pager={{ base: '/things?limit=5', offset: 0, limit: 25 }} />)
    expect(html).toBe('<p class="muted">No rows.</p><nav class="pager" aria-label="pages"><span class="muted">← Newer</span><span class="muted"></span><span class="muted">Older →</span></nav>')
    const past = render(<DataTable rows={[]} columns={columns} rowKey={(row) => row.id} empty="No rows." pager={{ base: '/things', offset: 50, limit: 25 }} />)
    expect(past).toBe('<p class="muted">No rows.</p><nav class="pager" aria-label="pages"><a href="/things?offset=25">← Newer</a><span class="muted">past the end</span><span class="muted">Older →</span></nav>')
  })
})
