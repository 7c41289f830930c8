/**
 * Servers-mode suites run only when their server's URL is set; otherwise they print why they
 * skipped. (Tests read these variables directly: they configure the test run, not the server.)
 */
export function serverUrl(variable: 'ESDB_URL' | 'MONGODB_URI' | 'REDIS_URL'): string | undefined {
  const value = process.env[variable];
  return value && value.length > 0 ? value : undefined;
}

export function describeIfServer(variable: 'ESDB_URL' | 'MONGODB_URI' | 'REDIS_URL', title: string, body: (url: string) => void): void {
  const url = serverUrl(variable);
  if (url) {
    describe(title, () => body(url));
  } else {
    describe(title, () => {
      it.skip(`skipped: ${variable} is not set (no server to test against on this machine)`, () => undefined);
    });
    // eslint-disable-next-line no-console
    console.log(`[contract] ${title}: skipped because ${variable} is not set; set it to run this suite against a real server.`);
  }
}
