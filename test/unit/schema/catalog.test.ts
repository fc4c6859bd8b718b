import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  allComponents,
  componentTypesForSlot,
  CUSTOM_DEFAULT_TYPES,
  DEFAULT_TYPES,
  defaultTypeFor,
  fieldInfo,
  getComponent,
  requiredFields,
  slotsAccepting,
  templateContextFor,
} from '../../../server/src/runtime/schema/catalog';
import { TEMPLATE_CONTEXT_KINDS } from '../../../server/src/runtime/interpolation/contextKinds';

test('every component type is declared once, with a description', () => {
  const seen = new Set<string>();
  for (const c of allComponents()) {
    assert.ok(!seen.has(c.type), `${c.type} declared twice`);
    seen.add(c.type);
    assert.ok(c.description.length > 10, `${c.type} needs a description`);
    for (const [name, f] of Object.entries(c.fields)) assert.ok(f.description.length > 5, `${c.type}.${name} needs a description`);
  }
});

test('every slot names only declared components', () => {
  for (const c of allComponents()) {
    for (const [name, f] of Object.entries(c.fields)) {
      for (const t of f.components ?? []) assert.ok(getComponent(t), `${c.type}.${name} names unknown ${t}`);
    }
  }
});

test('the §1.2 default types exist and are allowed in their slots', () => {
  for (const [slot, type] of Object.entries({ ...DEFAULT_TYPES, ...CUSTOM_DEFAULT_TYPES })) {
    // Reference quirk (§1.2): the CDK's default for this slot names no real component.
    if (type === 'ConfigComponentResolver') continue;
    assert.ok(getComponent(type), `${slot} → unknown ${type}`);
    const [parent, field] = slot.split('.');
    // The CDK's table also has keys for fields the format does not define (custom components' extra
    // fields, CompositeErrorHandler.backoff_strategies, SchemaTypeIdentifier.types_map).
    if (!fieldInfo(parent, field)) continue;
    const allowed = componentTypesForSlot(parent, field);
    assert.ok(allowed.includes(type), `${slot} does not accept its default ${type} (allows ${allowed.join(', ')})`);
  }
});

test('template contexts are kinds of contextKinds.ts', () => {
  for (const c of allComponents()) {
    for (const f of Object.values(c.fields)) {
      if (f.templateContext) assert.ok((TEMPLATE_CONTEXT_KINDS as readonly string[]).includes(f.templateContext));
    }
  }
});

test('query API answers for known and unknown names', () => {
  assert.equal(getComponent('OAuthAuthenticator')?.area, 'auth');
  assert.equal(getComponent('Nope'), undefined);
  assert.equal(fieldInfo('PageIncrement', 'start_from_page')?.default, 0);
  assert.equal(fieldInfo('OffsetIncrement', 'inject_on_first_request')?.label, 'Inject Offset on First Request');
  assert.equal(fieldInfo('PageIncrement', 'constructor'), undefined);
  assert.ok(componentTypesForSlot('HttpRequester', 'authenticator').includes('BearerAuthenticator'));
  assert.deepEqual(componentTypesForSlot('HttpRequester', 'path'), []);
  assert.equal(defaultTypeFor('SimpleRetriever', 'paginator'), 'NoPagination');
  assert.equal(defaultTypeFor('HttpRequester', 'authenticator'), undefined);
  assert.equal(defaultTypeFor('HttpRequester', 'authenticator', true), 'CustomAuthenticator');
  assert.deepEqual(requiredFields('BearerAuthenticator'), ['api_token']);
  assert.equal(templateContextFor('CursorPagination', 'cursor_value'), 'pagination_cursor');
  assert.equal(templateContextFor('HttpRequester', 'http_method'), undefined);
  assert.ok(slotsAccepting('RequestPath').includes('DefaultPaginator.page_token_option'));
  assert.equal(getComponent('CustomIncrementalSync')?.removedIn, '7.0.0');
});
