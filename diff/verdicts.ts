/**
 * Who a change breaks, as [clients, implementers]. A change is judged by which way its data flows: a request narrowed
 * refuses what clients sent, a response widened sends clients what they never saw.
 */
import type { Flow, SchemaChange } from './schema.ts';

export type Level = 'breaking' | 'possibly-breaking' | 'compatible';

export type Verdict = [clients: Level, implementers: Level];
export const B = 'breaking';
export const P = 'possibly-breaking';
export const C = 'compatible';

/** Schema differences by direction: [clients, implementers] for a request and for a response. */
const SCHEMA_RULES: Record<string, { request: Verdict; response: Verdict }> = {
  'type-changed': { request: [B, B], response: [B, B] },
  'type-narrowed': { request: [B, C], response: [C, B] },
  'type-widened': { request: [C, B], response: [B, C] },
  'value-removed': { request: [B, C], response: [C, B] },
  'value-added': { request: [C, B], response: [P, C] },
  'value-narrowed': { request: [B, C], response: [C, B] },
  'value-widened': { request: [C, B], response: [P, C] },
  'alternative-removed': { request: [B, C], response: [C, B] },
  'alternative-added': { request: [C, B], response: [B, C] },
  'pattern-changed': { request: [P, P], response: [P, P] },
  'format-changed': { request: [P, P], response: [P, P] },
  'limit-narrowed': { request: [B, C], response: [C, B] },
  'limit-widened': { request: [C, B], response: [P, C] },
  'property-became-required': { request: [B, C], response: [C, B] },
  'property-became-optional': { request: [C, P], response: [B, C] },
  'map-opened': { request: [C, B], response: [B, C] },
  'conditional-added': { request: [B, C], response: [C, B] },
  'conditional-removed': { request: [C, B], response: [P, C] },
  'conditional-changed': { request: [P, P], response: [P, P] },
  'dependency-added': { request: [B, C], response: [C, B] },
  'dependency-removed': { request: [C, B], response: [P, C] },
  'constraint-added': { request: [B, C], response: [C, B] },
  'constraint-removed': { request: [C, B], response: [P, C] },
  'constraint-changed': { request: [P, P], response: [P, P] },
  'items-narrowed': { request: [B, C], response: [C, B] },
  'items-widened': { request: [C, B], response: [B, C] },
};

export function classify(change: SchemaChange, flow: Flow): Verdict {
  if (change.rule === 'property-added') {
    if (flow === 'request') return change.required ? [B, P] : [C, P];
    return change.required ? [C, B] : [C, C];
  }
  if (change.rule === 'property-removed') {
    if (flow === 'request') return [P, C];
    return [change.required ? B : P, change.closed ? B : C];
  }
  return SCHEMA_RULES[change.rule]?.[flow] ?? [P, P];
}
