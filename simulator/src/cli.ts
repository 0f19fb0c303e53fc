/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console */
import { createServer } from 'node:http';
const port = Number(process.argv[process.argv.indexOf('--port') + 1] ?? 0);
const server = createServer((_req, res) => { res.end('{}'); });
server.listen(port, '127.0.0.1', () => {
	const addr = server.address();
	if (addr && typeof addr === 'object') console.log(`listening on http://127.0.0.1:${addr.port}`);
});
