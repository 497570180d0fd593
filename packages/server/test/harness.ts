// The server's tests use the test kit's harness (real servers on real databases); this folder is a package of its own
// (@portal/server-tests), so the server itself does not depend on the kit that starts it.
export * from '@portal/testkit/harness';
