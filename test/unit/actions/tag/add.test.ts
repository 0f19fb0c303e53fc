/**
 * Tag → Add with a fake SentiOne: POST /projects/{id}/mentions/{mentionId}/tags with `{ tags }`
 * (names trimmed, repeats dropped, D-22), SentiOne's answer passed on, every local check of the
 * mention ID and the names (Tag → Remove reads them the same way: changeTags.ts), and the errors.
 * The engine tier: test/engine/actions/tag.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	TAG_NAME_MAX_LENGTH,
	TAGS_PER_REQUEST_MAX,
} from '../../../../nodes/SentiOne/shared/contract';
import { BOUNDS } from '../../../../nodes/SentiOne/shared/bounds';
import { idAndCollectedAt } from '../../../../nodes/SentiOne/trigger/common/mentionKey';
import { failAction, projectById, runAction } from '../../../support/fake/action';
import { FakeApi } from '../../../support/fake/api';
import { useFakeClock } from '../../../support/fake/clock';

const PATH = '/projects/1001/mentions/7f3c2a9e/tags';

const add = (extra: IDataObject = {}): IDataObject => ({
	resource: 'tag',
	operation: 'add',
	project: projectById(1001),
	mentionId: '7f3c2a9e',
	tags: 'complaint, vip',
	...extra,
});

useFakeClock();

test('sends POST …/mentions/{id}/tags with { tags } and returns the mention with all its tags', async () => {
	const api = new FakeApi().on('POST', PATH, {
		body: { id: '7f3c2a9e', tags: ['old', 'complaint', 'vip'] },
	});
	const { items } = await runAction(add(), { api });
	expect(api.requests).toHaveLength(1);
	expect(api.requests[0]).toMatchObject({
		method: 'POST',
		path: PATH,
		qs: {},
		body: { tags: ['complaint', 'vip'] },
	});
	expect(items).toEqual([
		{ json: { id: '7f3c2a9e', tags: ['old', 'complaint', 'vip'] }, pairedItem: { item: 0 } },
	]);
});

test('names are trimmed and repeats dropped, in the order given; a list from an expression is taken as names', async () => {
	const api = new FakeApi().on('POST', PATH, { body: { id: '7f3c2a9e', tags: [] } });
	await runAction(add({ tags: ' vip, vip,complaint ,VIP' }), { api });
	await runAction(add({ tags: ['vip', ' complaint ', 42] }), { api });
	expect(api.requests.map((r) => r.body)).toEqual([
		{ tags: ['vip', 'complaint', 'VIP'] },
		{ tags: ['vip', 'complaint', '42'] },
	]);
});

test('the longest id a trigger passes on can be tagged: the triggers and Tag share one id bound', async () => {
	const id = 'm'.repeat(BOUNDS.maxMentionIdChars);
	expect(idAndCollectedAt({ id }).id).toBe(id);
	const api = new FakeApi().on('POST', /\/tags$/, { body: { id, tags: ['vip'] } });
	await runAction(add({ mentionId: id }), { api });
	expect(api.requests).toHaveLength(1);
	expect(api.requests[0].path).toBe(`/projects/1001/mentions/${id}/tags`);
});

test('a mention ID with a slash or other URL characters is sent encoded, one path segment', async () => {
	const api = new FakeApi().on('POST', /\/tags$/, { body: { id: 'x', tags: [] } });
	await runAction(add({ mentionId: 'a/b?c#d' }), { api });
	await runAction(add({ mentionId: ' 12345 ' }), { api });
	await runAction(add({ mentionId: 987 }), { api });
	expect(api.requests.map((r) => r.path)).toEqual([
		'/projects/1001/mentions/a%2Fb%3Fc%23d/tags',
		'/projects/1001/mentions/12345/tags',
		'/projects/1001/mentions/987/tags',
	]);
});

describe('bad input stops before any request, naming the field', () => {
	const cases: Array<[string, IDataObject, string]> = [
		[
			'no mention ID',
			{ mentionId: '  ' },
			'Mention ID: no mention ID is given. Use the "id" field of a mention.',
		],
		[
			'a mention ID that moves up the path',
			{ mentionId: '..' },
			'Mention ID: ".." cannot be a mention ID: in a request path it would mean a move up the path, not a mention.',
		],
		[
			'an encoded move up the path',
			{ mentionId: '%2e%2E' },
			'Mention ID: "%2e%2E" cannot be a mention ID',
		],
		[
			'a mention ID with a control character',
			{ mentionId: 'abc\ndef' },
			'Mention ID: this is not a mention ID (it contains control characters).',
		],
		[
			'a mention ID far too long',
			{ mentionId: 'x'.repeat(BOUNDS.maxMentionIdChars + 1) },
			`Mention ID: this is not a mention ID (${BOUNDS.maxMentionIdChars + 1} characters long).`,
		],
		[
			'a mention ID that is an object',
			{ mentionId: { id: 'm1' } },
			'Mention ID: expected text, got an object',
		],
		[
			'no tag names',
			{ tags: ' , ' },
			'Tags: no tag name is given. Enter one or more names separated by commas.',
		],
		[
			'two commas in a row',
			{ tags: 'vip,,complaint' },
			'Tags: tag name 2 is empty (two commas in a row, or a comma at the start or end?).',
		],
		[
			'a comma inside a listed name',
			{ tags: ['vip', 'a,b'] },
			'Tags: "a,b": a tag name cannot contain a comma.',
		],
		[
			'a name longer than SentiOne accepts',
			{ tags: `ok, ${'t'.repeat(TAG_NAME_MAX_LENGTH + 1)}` },
			`Tags: tag name 2 is ${TAG_NAME_MAX_LENGTH + 1} characters long; SentiOne accepts at most ${TAG_NAME_MAX_LENGTH}.`,
		],
		[
			'more names than one request takes',
			{ tags: Array.from({ length: TAGS_PER_REQUEST_MAX + 1 }, (_, k) => `t${k}`).join(',') },
			`Tags: ${TAGS_PER_REQUEST_MAX + 1} tag names are given; SentiOne accepts at most ${TAGS_PER_REQUEST_MAX} per request.`,
		],
		[
			'a listed name that is not text',
			{ tags: ['vip', true] },
			'Tags (name 2): expected text, got a boolean',
		],
		[
			'no project',
			{ project: projectById('') },
			'Project: no project is selected. Choose one from the list or enter its ID.',
		],
	];
	test.each(cases)('%s', async (_, parameters, message) => {
		const api = new FakeApi();
		const failure = await failAction(add(parameters), { api });
		expect(failure.message.startsWith(message)).toBe(true);
		expect(failure.description).toBe(
			'Nothing was sent to SentiOne, so no request budget was used.',
		);
		expect(api.requests).toHaveLength(0);
	});

	test('exactly the most names and the longest name SentiOne accepts are sent', async () => {
		const api = new FakeApi().on('POST', PATH, { body: { id: '7f3c2a9e', tags: [] } });
		const names = Array.from({ length: TAGS_PER_REQUEST_MAX }, (_, k) => `t${k}`);
		names[0] = 'n'.repeat(TAG_NAME_MAX_LENGTH);
		await runAction(add({ tags: names.join(',') }), { api });
		expect((api.requests[0].body as { tags: string[] }).tags).toEqual(names);
	});
});

describe('errors SentiOne answers', () => {
	test('404 naming the mention: not found', async () => {
		const api = new FakeApi().on('POST', PATH, {
			status: 404,
			body: { message: 'Mention 7f3c2a9e not found in project 1001.' },
		});
		const failure = await failAction(add(), { api });
		expect(failure.message).toBe(
			'SentiOne could not find what the request names (404): Mention 7f3c2a9e not found in project 1001.',
		);
	});

	test('404 naming nothing: Tag → Add is not available on this SentiOne API', async () => {
		const api = new FakeApi().on('POST', PATH, { status: 404, body: { message: 'Not Found' } });
		const failure = await failAction(add(), { api });
		expect(failure.message).toBe(
			'Tag → Add is not available on this SentiOne API (404): Not Found',
		);
		expect(failure.description).toContain('without naming a missing mention or project');
	});

	test('a Basic key: tagging needs the Enterprise tier, and nothing of the Basic tier does it', async () => {
		const api = new FakeApi().on('POST', PATH, {
			status: 401,
			body: {
				message:
					'API key does not have permission for this endpoint. It requires the Enterprise tier.',
			},
		});
		const failure = await failAction(add(), { api });
		expect(failure.message).toBe(
			"Tag → Add needs SentiOne's Enterprise tier, and this API key does not have it (401)",
		);
		expect(failure.description).toMatch(
			/^No operation of the Basic tier does what Tag → Add does\. To use Tag → Add, ask SentiOne for an API key with the Enterprise tier\./,
		);
	});

	test('a change is never repeated: a 504 fails at once with the server error', async () => {
		const api = new FakeApi().on('POST', PATH, {
			status: 504,
			body: { message: 'Gateway Timeout' },
		});
		const failure = await failAction(add(), { api });
		expect(failure.message).toBe('SentiOne had a server error (504): Gateway Timeout');
		expect(api.requests).toHaveLength(1);
	});

	test('422 on the names: the field and its message', async () => {
		const api = new FakeApi().on('POST', PATH, {
			status: 422,
			body: { message: 'Validation failed.', requestFieldErrors: { 'tags[0]': ['reserved name'] } },
		});
		expect((await failAction(add(), { api })).message).toBe(
			'SentiOne rejected a value (422) — tags[0]: reserved name',
		);
	});
});

test('429 for the tagging budget, with the reset it states: not sent again', async () => {
	const api = new FakeApi().on('POST', PATH, {
		status: 429,
		body: { message: 'Too many requests. Limits will reset at 2026-11-21T11:00:00Z.' },
	});
	const failure = await failAction(add(), { api });
	expect(failure.message).toMatch(
		/^SentiOne's tagging API budget is used up \(429\): at most 300 requests an hour for this key\. It resets at 2026-11-21 11:00 UTC/,
	);
	expect(api.requests).toHaveLength(1);
});
