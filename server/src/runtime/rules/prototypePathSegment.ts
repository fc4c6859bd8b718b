// Rule `prototype-path-segment`: a path the runtime WRITES by (AddFields, a RequestOption's
// field_path, a dynamic stream's ComponentMappingDefinition, the OAuth write-back config paths,
// `path_in_connector_config`) may not hold `__proto__`, `constructor` or `prototype`: in JavaScript
// such a walk could reach the prototype shared by every object. The runtime refuses the same paths
// (shared/safeObject.ts); this rule puts the error on the segment before anything runs.
import type { JsonPath } from '../manifest/origins';
import { prototypePathMessage, prototypeSegment } from '../shared/safeObject';
import { isMapping, type Rule, type RuleFinding } from './types';

/** Component type → its list fields that are write paths. */
const WRITE_PATHS: Record<string, readonly string[]> = {
  AddedFieldDefinition: ['path'],
  RequestOption: ['field_path'],
  ComponentMappingDefinition: ['field_path'],
};
const UPDATER_PATHS = ['access_token_config_path', 'refresh_token_config_path', 'token_expiry_date_config_path'];

export const prototypePathSegment: Rule = {
  code: 'prototype-path-segment',
  check(ctx) {
    const out: RuleFinding[] = [];
    const flag = (what: string, list: unknown, at: JsonPath) => {
      if (!Array.isArray(list)) return;
      const bad = prototypeSegment(list);
      if (bad < 0) return;
      out.push({
        code: this.code,
        severity: 'error',
        path: [...at, bad],
        anchor: 'value',
        message: prototypePathMessage(what, list.map(String), bad),
      });
    };
    for (const c of ctx.components) {
      for (const field of WRITE_PATHS[c.type] ?? []) flag(`${c.type}.${field}`, c.node[field], [...c.path, field]);
      if (c.type === 'OAuthAuthenticator' && isMapping(c.node.refresh_token_updater)) {
        const u = c.node.refresh_token_updater;
        for (const field of UPDATER_PATHS) flag(`refresh_token_updater.${field}`, u[field], [...c.path, 'refresh_token_updater', field]);
      }
    }
    // The OAuth output specifications are plain JSON schema, not components: walk the spec for them.
    const walk = (node: unknown, at: JsonPath, depth: number) => {
      if (depth > 64 || node === null || typeof node !== 'object') return;
      if (Array.isArray(node)) {
        node.forEach((item, i) => walk(item, [...at, i], depth + 1));
        return;
      }
      for (const [key, value] of Object.entries(node)) {
        if (key === 'path_in_connector_config') flag('path_in_connector_config', value, [...at, key]);
        else walk(value, [...at, key], depth + 1);
      }
    };
    walk(ctx.root.spec, ['spec'], 0);
    return out;
  },
};
