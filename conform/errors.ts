/** Matching an error answer against a method's documented errors (messagePattern: generators/model/errors.ts). */
import { messagePattern } from '../generators/model/errors.ts';
import type { MethodModel } from '../generators/model/types.ts';

export interface DocumentedError {
  /** The spec's name of the error (generators/model/errors.ts). */
  name: string;
  code: number;
  message: string;
  pattern: RegExp;
}

export function documentedErrorsOf(method: MethodModel): DocumentedError[] {
  return method.errors.map((error) => ({
    name: error.name,
    code: error.code,
    message: error.message,
    pattern: messagePattern(error.message),
  }));
}

export function findDocumentedError(
  documented: DocumentedError[],
  code: number,
  message: string,
): DocumentedError | undefined {
  return documented.find((d) => d.code === code && (d.message === message || d.pattern.test(message)));
}
