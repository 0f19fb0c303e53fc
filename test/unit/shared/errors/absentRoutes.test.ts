/**
 * One answer for a route the server does not have, for every route of the contract's table (the
 * live stream, the engagement stream and the exports included): a 405, or SentiOne's own 404 for an
 * unknown route (D-34, "Not found."), says "<operation> is not available on this SentiOne API"; a
 * 404 naming a project, mention or tag is a missing resource (D-21, D-22); any other 404 naming
 * nothing is "not available" on an announced route and a missing resource on a confirmed one.
 */

import type { EndpointName } from '../../../../nodes/SentiOne/shared/contract';
import { ENDPOINTS, PATHS, UNCONFIRMED } from '../../../../nodes/SentiOne/shared/contract';
import type { RequestInfo } from '../../../../nodes/SentiOne/shared/errors';
import { errorDetails, mapHttpError } from '../../../../nodes/SentiOne/shared/errors';
import { actionNodeOf } from '../../../support/fake/context';

const node = actionNodeOf('node-1');

const NAMES = Object.keys(ENDPOINTS) as EndpointName[];
const UNCONFIRMED_ROUTES = NAMES.filter((name) => !ENDPOINTS[name].confirmed);
const CONFIRMED_ROUTES = NAMES.filter((name) => ENDPOINTS[name].confirmed);

/** The route's path for project 1001 (and mention m-1 where it takes one). */
function pathOf(name: EndpointName): string {
	const args = [1001, 'm-1'].slice(0, ENDPOINTS[name].path.length) as never[];
	return (PATHS[name] as (...a: never[]) => string)(...args);
}

function requestOf(name: EndpointName): RequestInfo {
	const def = ENDPOINTS[name];
	return {
		endpoint: name,
		method: def.method,
		path: pathOf(name),
		group: def.group,
		tier: def.tier,
		zone: 'UTC',
	};
}

const answer = (name: EndpointName, statusCode: number, body: unknown) =>
	mapHttpError(node, requestOf(name), { statusCode, body });

test('the table has announced routes and confirmed ones, project-scoped and not, streams among both', () => {
	expect(UNCONFIRMED_ROUTES).toEqual([
		'createProject',
		'updateProject',
		'deleteProject',
		'recentExport',
		'engagementStream',
		'listTags',
		'addTags',
		'removeTags',
	]);
	expect(CONFIRMED_ROUTES).toEqual(
		expect.arrayContaining(['liveStream', 'historicalExport', 'recentSearch']),
	);
	expect(UNCONFIRMED.announcedRoutes.whenWrong).toMatch(/D-34/);
});

describe.each(NAMES)('%s', (name) => {
	const def = ENDPOINTS[name];
	const operation = def.operation.replace(/[()]/g, '\\$&');

	test('no such route — SentiOne’s 404 "Not found." (D-34) or a 405: not available on this SentiOne API', () => {
		for (const [status, body] of [
			[404, { message: 'Not found.' }],
			[405, { message: 'Method not allowed.' }],
		] as const) {
			const error = answer(name, status, body);
			expect(error.message).toBe(
				`${def.operation} is not available on this SentiOne API (${status}): ${body.message}`,
			);
			expect(error.description).toContain(`${def.method} ${pathOf(name)}`);
			expect(error.description).not.toContain('Check the project ID or mention ID');
			expect(error.description).toMatch(
				def.confirmed ? /reference documents.*check the Base URL\.$/ : /has announced but/,
			);
			expect(errorDetails(error)).toMatchObject({ statusCode: status, routeMaybeAbsent: true });
			expect(error.failure).toEqual({ cause: 'configuration-invalid' });
		}
	});

	test('a 404 naming the project, mention or tag: that one is missing, the route is there', () => {
		for (const message of [
			'Project 1001 not found.',
			'Mention m-1 not found in project 1001.',
			'Tag vip not found.',
		]) {
			const error = answer(name, 404, { message });
			expect(error.message).toBe(
				`SentiOne could not find what the request names (404): ${message}`,
			);
			expect(error.description).toMatch(/^Check the project ID or mention ID/);
			expect(errorDetails(error)?.routeMaybeAbsent).toBeUndefined();
		}
	});

	test('any other 404 naming nothing: not available on an announced route, a missing resource on a confirmed one', () => {
		for (const body of [{ message: 'Not Found' }, '<html><h1>404</h1></html>', undefined]) {
			const error = answer(name, 404, body);
			expect(error.message).toMatch(
				def.confirmed
					? /^SentiOne could not find what the request names \(404\): /
					: new RegExp(`^${operation} is not available on this SentiOne API \\(404\\): `),
			);
		}
	});
});

test('the description names what the route could be missing: nothing, a project, or a mention or project', () => {
	expect(answer('engagementStream', 404, { message: 'Not found.' }).description).toContain(
		'the server answered 404, the way it answers a route it does not offer',
	);
	expect(answer('recentExport', 404, { message: 'Not found.' }).description).toContain(
		'without naming a missing project,',
	);
	expect(answer('addTags', 404, { message: 'Not found.' }).description).toContain(
		'without naming a missing mention or project,',
	);
});

test('the live stream, a route the server lacks: the same answer as every other route', () => {
	const error = answer('liveStream', 404, { message: 'Not found.' });
	expect(error.message).toBe(
		'SentiOne Stream Trigger → New Mention is not available on this SentiOne API (404): Not found.',
	);
	expect(error.description).toBe(
		"POST /projects/1001/mentions/recent/search/stream/live is a route SentiOne's reference documents, and the server answered 404 without naming a missing project, the way it answers a route it does not offer. The server at the credential's Base URL may not be SentiOne's Listen API v2 (or not all of it): check the Base URL.",
	);
});

test('a request without a row of the table (the transport’s own tests) keeps the plain wording', () => {
	const request: RequestInfo = {
		method: 'PATCH',
		path: '/projects',
		group: 'projects',
		tier: 'Basic',
		zone: 'UTC',
	};
	expect(
		mapHttpError(node, request, { statusCode: 405, body: { message: 'Method not allowed.' } })
			.message,
	).toBe('SentiOne does not accept PATCH here (405): Method not allowed.');
	expect(
		mapHttpError(
			node,
			{ ...request, method: 'GET' },
			{
				statusCode: 404,
				body: { message: 'Not found.' },
			},
		).message,
	).toBe('SentiOne could not find what the request names (404): Not found.');
});
