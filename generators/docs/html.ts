/**
 * Safe HTML fragments for the docs views. Spec text is untrusted (it can contain `<script>`), so the only way to put
 * markup into a page is an `Html` value built here, where every interpolated string is escaped. Handlebars prints
 * an `Html` as is (it honours `toHTML()`), and escapes everything else, so templates never need triple braces.
 */
import { escapeHtml } from '../shared/escape.ts';

export class Html {
  private readonly markup: string;
  constructor(markup: string) {
    this.markup = markup;
  }
  toHTML(): string {
    return this.markup;
  }
  toString(): string {
    return this.markup;
  }
}

export type HtmlPart = Html | string | number | null | undefined | false | HtmlPart[];

function render(part: HtmlPart): string {
  if (part === null || part === undefined || part === false) return '';
  if (Array.isArray(part)) return part.map(render).join('');
  if (part instanceof Html) return part.toHTML();
  return escapeHtml(String(part));
}

/** Tagged template: the literal parts are markup, every interpolation is escaped unless it already is `Html`. */
export function html(strings: TemplateStringsArray, ...values: HtmlPart[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Html(out);
}

export function joinHtml(parts: HtmlPart[], separator: HtmlPart = ''): Html {
  return new Html(parts.map(render).join(render(separator)));
}

export const EMPTY_HTML = new Html('');

/**
 * The releases that have a method, param, field, result shape or enum value, as attributes the release selector
 * (site.js) reads: ` data-since="v1.10.1" data-removed-in="v1.12.2"`; empty when every release has it.
 */
export function releaseAttrs(range: { since?: string; lastVersion?: string; removedIn?: string } | undefined): Html {
  if (!range) return EMPTY_HTML;
  return html`${range.since ? html` data-since="${range.since}"` : ''}${range.lastVersion ? html` data-last="${range.lastVersion}"` : ''}${range.removedIn ? html` data-removed-in="${range.removedIn}"` : ''}`;
}
