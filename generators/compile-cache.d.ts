/** The types of ./compile-cache.js (plain JavaScript: it is the hook that strips the TypeScript sources). */
export declare function stripAhead(files: string[]): void;
