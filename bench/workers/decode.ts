/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark code: not shipped */
/**
 * The decoding benchmark in a process of its own (started with --expose-gc by bench/main.ts):
 * `node --expose-gc bench/run.js --worker decode <simulator base> <mentions> <runs>`.
 * Prints its result as one JSON line on stdout; progress goes to stderr.
 */
import { measureDecode } from '../decode';
import { log } from '../lib';

const [base, mentions, runs] = process.argv.slice(process.argv.indexOf('decode') + 1);

measureDecode({ base, mentions: Number(mentions), runs: Number(runs), progress: log })
	.then((result) => {
		process.stdout.write(`${JSON.stringify(result)}\n`);
	})
	.catch((error: unknown) => {
		process.stderr.write(
			`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
		);
		process.exitCode = 1;
	});
