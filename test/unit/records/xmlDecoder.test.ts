// XmlDecoder (xmltodict shape): attributes, #text, repeated siblings, string leaves, empty → null.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDecoder } from '../../../server/src/runtime/records/decoders';
import { decodeXml } from '../../../server/src/runtime/records/xmlDecoder';

const one = (xml: string) => {
  const d = decodeXml(xml);
  assert.equal(d.problem, null);
  assert.equal(d.elements.length, 1);
  return d.elements[0];
};

test('attributes become @name, text next to attributes becomes #text', () => {
  assert.deepEqual(one('<r><loc id="123">  San Francisco </loc></r>'), { r: { loc: { '@id': '123', '#text': 'San Francisco' } } });
});

test('repeated siblings become a list, in document order, even when interleaved', () => {
  assert.deepEqual(one('<r><x>a</x><y>b</y><x>c</x></r>'), { r: { x: ['a', 'c'], y: 'b' } });
});

test('every leaf is a string: numbers and booleans are not converted', () => {
  assert.deepEqual(one('<r n="7"><price>10.99</price><ok>true</ok><id>0012</id></r>'), {
    r: { '@n': '7', price: '10.99', ok: 'true', id: '0012' },
  });
});

test('empty elements are null; attributes without text have no #text', () => {
  assert.deepEqual(one('<r><a/><b></b><c>   </c><d id="1"/><e><f/><f/></e></r>'), {
    r: { a: null, b: null, c: null, d: { '@id': '1' }, e: { f: [null, null] } },
  });
  assert.deepEqual(one('<root></root>'), { root: null });
});

test('element text is stripped; attribute values are kept exactly, spaces included', () => {
  assert.deepEqual(one('<r>\n  <a x=" 1 " y="">  two  words  </a>\n  <!-- c -->\n  <a>2</a>\n</r>'), {
    r: { a: [{ '@x': ' 1 ', '@y': '', '#text': 'two  words' }, '2'] },
  });
});

test('key order: attributes first, then children, then #text', () => {
  const v = one('<r><f z="1">text<g>2</g>more</f></r>') as { r: { f: Record<string, unknown> } };
  assert.deepEqual(Object.keys(v.r.f), ['@z', 'g', '#text']);
  assert.equal(v.r.f['#text'], 'textmore');
});

test('declaration, comments and processing instructions are dropped; entities, CDATA and prefixes kept as xmltodict does', () => {
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?><!-- c --><?pi x?><n:r xmlns:n="urn:x"><v a="&amp;&#65;">&lt;b&gt; &#x42;</v><c><![CDATA[<raw>]]></c></n:r>';
  assert.deepEqual(one(xml), { 'n:r': { '@xmlns:n': 'urn:x', v: { '@a': '&A', '#text': '<b> B' }, c: '<raw>' } });
});

test('invalid XML yields nothing and a located problem; an empty body yields nothing quietly', () => {
  for (const bad of ['<a><b></a>', 'not xml', '<a>1</a><b>2</b>', '{"json": true}']) {
    const d = decodeXml(bad);
    assert.deepEqual(d.elements, []);
    assert.match(d.problem ?? '', /^is not valid XML \(line 1/);
  }
  assert.deepEqual(decodeXml('  \n'), { elements: [], problem: null });
});

test('createDecoder(XmlDecoder) decodes a response and reports its problem', () => {
  const dec = createDecoder({ type: 'XmlDecoder' });
  assert.deepEqual(dec.decode({ body: '<r><i>1</i></r>' }), [{ r: { i: '1' } }]);
  assert.equal(dec.problem({ body: '<r><i>1</i></r>' }), null);
  assert.match(dec.problem({ body: '<r>' }) ?? '', /not valid XML/);
});

test('element names that would be unsafe object keys yield nothing and a problem, never a crash or a polluted prototype', () => {
  const d = decodeXml('<r><__proto__><polluted>1</polluted></__proto__></r>');
  assert.deepEqual(d.elements, []);
  assert.match(d.problem ?? '', /cannot be read as XML here \(.*__proto__/);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('createPaginator with an XmlDecoder: cursor and offset templates read the decoded dict of a scripted text body', async () => {
  const { createPaginator } = await import('../../../server/src/runtime/pagination/defaultPaginator');
  const response = { status: 200, headers: {}, body: '<feed><meta next="p2" size="2"/><e>1</e><e>2</e></feed>' };
  const cursor = createPaginator(
    { type: 'DefaultPaginator', pagination_strategy: { type: 'CursorPagination', cursor_value: "{{ response.feed.meta['@next'] }}" } },
    {},
    { decoder: { type: 'XmlDecoder' } },
  );
  assert.deepEqual(cursor.nextPageToken(response, 2, null, null), { next_page_token: 'p2' });
  const offset = createPaginator(
    { type: 'DefaultPaginator', pagination_strategy: { type: 'OffsetIncrement', page_size: "{{ response.feed.meta['@size'] | int }}" } },
    {},
    { decoder: { type: 'XmlDecoder' }, recordExtractor: { type: 'DpathExtractor', field_path: ['feed', 'e'] } },
  );
  assert.deepEqual(offset.nextPageToken(response, 2, null, null), { next_page_token: 2 });
});
