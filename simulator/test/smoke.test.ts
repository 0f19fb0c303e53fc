/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
import { spawn } from 'node:child_process';
test('starts', async () => {
	const child = spawn(process.execPath, ['simulator/src/cli.ts', '--port', '0']);
	const url = await new Promise<string>((resolve) => child.stdout.on('data', (d: Buffer) => resolve(/http:\/\/\S+/.exec(d.toString())![0])));
	const res = await fetch(url);
	expect(res.status).toBe(200);
	child.kill();
});
