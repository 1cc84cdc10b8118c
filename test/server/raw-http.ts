// Moved to test/support/rpc.ts; this re-export serves the test files being edited on other branches until they import
// it from there.
export * from '../support/rpc.ts';
