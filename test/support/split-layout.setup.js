// The jest project \`split\`: ApiTestClient starts a worker plus API applications without projectors
// on one data directory (see SPLIT_LAYOUT in api-test-client.ts).
process.env.SPLIT_LAYOUT = '1';
