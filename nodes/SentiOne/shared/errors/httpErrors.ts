/**
 * The one mapper of SentiOne's answers that are not a success: every status becomes a NodeApiError
 * whose message says what happened, whose description says what to do, and which declares why it
 * failed for n8n (failure.ts). The words SentiOne's texts are read by live in contract/apiTexts.ts;
 * tiers and budgets are named from the contract's endpoint table (wording.ts); texts taken from a
 * response are redacted.
 */
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { plausibleReset } from '../bounds';
import type { EndpointDef, UnauthorizedCause } from '../contract';
import {
	ENDPOINTS,
	HOSTED_KEY_PREFIX,
	HOURLY_LIMITS,
	maximumFromMessage,
	NAMES_A_RESOURCE,
	PAGE_SIZES,
	rateLimitKind,
	resetFromMessage,
	statesHourlyBudget,
	unauthorizedCause,
	UNKNOWN_ROUTE_TEXT,
} from '../contract';
import { clock, serverClock } from '../clock';
import { formatInstant, formatLocal } from '../time';
import { anyTier, GROUP_NAMES, lowestTier, plural, recentWindowText, tierBelow } from '../wording';
import type { RequestInfo, ResponseInfo, SentiOneErrorDetails } from './details';
import { attach, errorDetails, redact } from './details';
import type { Failure } from './failure';
import { declareFailure, FAILURES } from './failure';

function serverMessage(body: unknown): string | undefined {
	if (body && typeof body === 'object' && !Array.isArray(body)) {
		const message = (body as IDataObject).message;
		if (typeof message === 'string' && message.trim() !== '') return redact(message.trim());
	}
	return undefined;
}

/** A short, safe description of a body that is not the API's JSON. */
export function describeBody(body: unknown, contentType?: string): string {
	if (body === undefined || body === null || body === '') return 'an empty body';
	if (typeof body !== 'string') return 'a JSON body without a message';
	const text = body.replace(/\s+/g, ' ').trim();
	const kind =
		/html/i.test(contentType ?? '') || /^<(!doctype|html)/i.test(text)
			? 'an HTML page'
			: 'a non-JSON body';
	const snippet = text.length > 160 ? `${text.slice(0, 160)}…` : text;
	return `${kind} ("${redact(snippet)}")`;
}

function fieldErrorsOf(body: unknown): Record<string, string[]> | undefined {
	if (!body || typeof body !== 'object') return undefined;
	const raw = (body as IDataObject).requestFieldErrors;
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
	const out: Record<string, string[]> = {};
	for (const [path, messages] of Object.entries(raw as IDataObject)) {
		const list = Array.isArray(messages) ? messages : [messages];
		out[redact(path)] = list.map((m) => redact(String(m)));
	}
	return out;
}

/** What an error says: its headline, what to do, the facts a caller reads back, and why it failed. */
interface Wording {
	message: string;
	description: string;
	details?: SentiOneErrorDetails;
	failure: Failure;
}

function apiError(
	node: INode,
	request: RequestInfo,
	statusCode: number,
	wording: Wording,
): NodeApiError {
	const { message, description } = wording;
	const error = new NodeApiError(node, { message, httpCode: String(statusCode) } as JsonObject, {
		message,
		description,
		httpCode: String(statusCode),
		itemIndex: request.itemIndex,
	});
	declareFailure(error, wording.failure);
	return attach(error, { statusCode, ...(wording.details ?? {}) });
}

/**
 * A key without the tier an operation needs: the headline names the operation and the tier (not
 * "refused the key", which reads like a wrong key), an alternative only where one exists.
 */
function tierRefusal(def: EndpointDef, said: string): Wording {
	const below = tierBelow(def.tier);
	const message =
		below === undefined
			? `${def.operation} needs API access (SentiOne's ${def.tier} tier), and this API key has none (401)`
			: `${def.operation} needs SentiOne's ${def.tier} tier, and this API key does not have it (401)`;
	const advice =
		below === undefined
			? `SentiOne recognises the key but its account has no API tier. Ask your SentiOne account manager to enable API access (${anyTier()}).`
			: `${def.alternative !== undefined ? `With a ${below} key, ${def.alternative}` : `No operation of the ${below} tier does what ${def.operation} does.`} To use ${def.operation}, ask SentiOne for an API key with the ${def.tier} tier.`;
	return {
		message,
		description: `${advice} Later operations of this run that need the same tier are refused without a request. (SentiOne: ${said})`,
		details: { tierRefused: def.tier },
		failure: FAILURES.configurationInvalid(),
	};
}

/** Refuses, without a request, an operation whose tier SentiOne already refused in this run. */
export function tierKnownRefused(node: INode, request: RequestInfo): NodeApiError | undefined {
	const def = request.endpoint ? ENDPOINTS[request.endpoint] : undefined;
	if (!def) return undefined;
	return apiError(
		node,
		request,
		401,
		tierRefusal(def, 'refused for an earlier operation of this run; nothing was sent this time'),
	);
}

/** What each cause of a 401 (apiTexts.ts) tells the user to do. */
function unauthorizedAdvice(cause: UnauthorizedCause, request: RequestInfo): string {
	switch (cause) {
		case 'missing':
			return 'the request reached SentiOne without an API key. Check that the SentiOne credential has its API key filled in.';
		case 'shape':
			return `the API key does not have the shape SentiOne expects (a prefix such as ${HOSTED_KEY_PREFIX} followed by the key). Copy the whole key again from Profile → API.`;
		case 'unknown':
			return "SentiOne does not recognise the API key. It may have been regenerated or revoked: copy it again from Profile → API, and check the credential's Base URL.";
		case 'tier':
			return `your API key does not have the ${request.tier} tier this operation needs. ${request.tier !== lowestTier() ? `This needs the ${request.tier} tier: ask SentiOne to upgrade the key, or use the ${lowestTier()}-tier alternative (recent search covers the last ${recentWindowText()}).` : 'Ask SentiOne to enable API access for this key.'}`;
	}
}

function unauthorized(
	request: RequestInfo,
	said: string | undefined,
	saidOrBody: string,
	where: string,
): Wording {
	const cause = unauthorizedCause(said);
	const def = request.endpoint ? ENDPOINTS[request.endpoint] : undefined;
	if (cause === 'tier' && def) return tierRefusal(def, saidOrBody);
	return {
		message: `SentiOne refused the API key (401): ${cause ? unauthorizedAdvice(cause, request) : saidOrBody}`,
		description: `SentiOne gives 401 when the key is missing, is not shaped like <PREFIX>-APIKEY-<key>, is not recognised, or lacks the tier of the endpoint (${where} needs ${request.tier}). Server message: ${saidOrBody}`,
		// a tier the key lacks is the configuration's; any other 401 is the key's
		failure: cause === 'tier' ? FAILURES.configurationInvalid() : FAILURES.credentialInvalid(),
	};
}

/** What a route's IDs are, by how many it takes (D-21, D-22): none, a project, or a project and a mention. */
function idsOf(def: EndpointDef): string | undefined {
	const count = def.path.length;
	return count === 0 ? undefined : count === 1 ? 'project' : 'mention or project';
}

/**
 * Whether a 404 or 405 says the server has no such route, told the same way for every route (the
 * live stream, the engagement stream and the exports included): a 405 always (the path is there
 * for other methods, or not at all); a 404 that names a project, mention or tag never (that one is
 * missing, D-21, D-22); a 404 in SentiOne's own words for a route it does not have always (D-34);
 * and any other 404 naming nothing on a route SentiOne only announced (D-11, D-22, D-23), where it
 * cannot be told apart from a missing resource. On a confirmed route such a 404 (an HTML page, a
 * generic "Not Found") blames the IDs or the Base URL.
 */
function routeAbsent(def: EndpointDef, statusCode: number, said: string | undefined): boolean {
	if (statusCode === 405) return true;
	if (said !== undefined && NAMES_A_RESOURCE.test(said)) return false;
	if (said === UNKNOWN_ROUTE_TEXT) return true;
	return !def.confirmed;
}

/** A route the server does not offer: one answer for every route, naming the operation. */
function notOffered(
	def: EndpointDef,
	statusCode: number,
	saidOrBody: string,
	where: string,
): Wording {
	const ids = idsOf(def);
	const answered = `the server answered ${statusCode}${ids !== undefined ? ` without naming a missing ${ids}` : ''}, the way it answers a route it does not offer`;
	return {
		message: `${def.operation} is not available on this SentiOne API (${statusCode}): ${saidOrBody}`,
		description: def.confirmed
			? `${where} is a route SentiOne's reference documents, and ${answered}. The server at the credential's Base URL may not be SentiOne's Listen API v2 (or not all of it): check the Base URL.`
			: `${where} is an endpoint SentiOne has announced but its specification does not confirm, and ${answered}. Check that your SentiOne deployment offers this operation; if it should, check the credential's Base URL.`,
		details: { routeMaybeAbsent: true },
		failure: FAILURES.configurationInvalid(),
	};
}

function notFound(
	request: RequestInfo,
	statusCode: number,
	said: string | undefined,
	saidOrBody: string,
	where: string,
): Wording {
	const def = request.endpoint ? ENDPOINTS[request.endpoint] : undefined;
	if (def && routeAbsent(def, statusCode, said))
		return notOffered(def, statusCode, saidOrBody, where);
	if (statusCode === 405) {
		return {
			message: `SentiOne does not accept ${request.method} here (405): ${saidOrBody}`,
			description: `The server does not offer ${where}. Check the credential's Base URL points at the SentiOne API.`,
			failure: FAILURES.configurationInvalid(),
		};
	}
	return {
		message: `SentiOne could not find what the request names (404): ${saidOrBody}`,
		description: `Check the project ID or mention ID (${where}); a project must be visible to this API key. If every request gives 404, check the credential's Base URL.`,
		failure: FAILURES.configurationInvalid(),
	};
}

/** A date field SentiOne judges by its clock (D-18): the 7-day window, a date in the future. */
const DATE_FIELD = /publishedAt|collectedAt/;

/** Whether an error is SentiOne's 422 on a date it judges by its clock (D-18). */
export function refusedDates(error: unknown): boolean {
	const details = errorDetails(error);
	return (
		details?.statusCode === 422 &&
		Object.keys(details.fieldErrors ?? {}).some((path) => DATE_FIELD.test(path))
	);
}

/** How SentiOne's clock stands to n8n's, as its answers dated them (D-50). */
function clockStanding(): string {
	const amount = (ms: number) =>
		Math.abs(ms) < 60_000
			? plural(Math.round(Math.abs(ms) / 1000), 'second')
			: Math.abs(ms) < 2 * 3_600_000
				? `${(Math.abs(ms) / 60_000).toFixed(1)} min`
				: `${(Math.abs(ms) / 3_600_000).toFixed(1)} hours`;
	const side = (ms: number) => (ms > 0 ? 'ahead of' : 'behind');
	const { offset, implausible } = serverClock;
	if (implausible !== undefined)
		return `SentiOne's answers are dated ${amount(implausible)} ${side(implausible)} n8n's clock, more than the node can allow for`;
	if (offset === undefined) return "n8n could not read SentiOne's clock: its answers carry no Date";
	if (offset === 0) return "n8n's clock and SentiOne's agree within seconds";
	return `SentiOne's clock is ${amount(offset)} ${side(offset)} n8n's`;
}

/**
 * A 422 on a date (D-18) names the clock it was judged by: SentiOne's, with how it stands to n8n's
 * and SentiOne's time now, so a refusal that comes of a clock difference says so.
 */
function clockNote(fields: Record<string, string[]>, said: string, zone: string) {
	if (!Object.keys(fields).some((path) => DATE_FIELD.test(path)) && !DATE_FIELD.test(said))
		return undefined;
	const standing = clockStanding();
	return {
		message: `SentiOne judges dates by its own clock (${standing})`,
		description: `SentiOne's time now is about ${formatLocal(clock.now() + (serverClock.implausible ?? serverClock.offset ?? 0), zone)}; recent search covers the last ${recentWindowText()} and no collected date may be in the future by that clock. The node computes its dates on SentiOne's clock as its answers show it; if the dates above are right, set the time of the host n8n runs on right (NTP) and run again.`,
	};
}

function rejectedValues(body: unknown, saidOrBody: string, where: string, zone: string): Wording {
	const fields = fieldErrorsOf(body) ?? {};
	const lines = Object.entries(fields).map(([path, messages]) => `${path}: ${messages.join('; ')}`);
	const clockSaid = clockNote(fields, saidOrBody, zone);
	return {
		message: `${
			lines.length > 0
				? `SentiOne rejected ${lines.length === 1 ? 'a value' : `${lines.length} values`} (422) — ${lines.join(' | ')}`
				: `SentiOne rejected a value (422): ${saidOrBody}`
		}`.replace(/\.?$/, (end) => (clockSaid ? `. ${clockSaid.message}` : end)),
		description: `${clockSaid ? `${clockSaid.description} ` : ''}Correct the parameter behind each field above and run again. (${where})`,
		details: { fieldErrors: fields },
		failure: FAILURES.configurationInvalid(),
	};
}

function rateLimited(
	request: RequestInfo,
	response: ResponseInfo,
	said: string | undefined,
): Wording {
	const kind = rateLimitKind(said);
	const headerReset = response.rateLimit?.resetAt;
	const written = resetFromMessage(said);
	const now = clock.now();
	// the monthly cap resets weeks ahead; an hourly reset must be plausible for an hourly window
	const bodyReset = kind === 'monthlyCap' ? written : plausibleReset(written, now, 'ms');
	const budget = HOURLY_LIMITS[request.group];
	const maximum = maximumFromMessage(said) ?? response.rateLimit?.limit ?? budget;
	const resetAt = kind === 'monthlyCap' ? bodyReset : (bodyReset ?? headerReset);
	const resetText =
		resetAt !== undefined
			? ` It resets at ${formatInstant(resetAt, now, request.zone)}.`
			: kind === 'monthlyCap'
				? ' It resets on the 1st of next month.'
				: ' SentiOne gave no usable reset time; hourly budgets reset at the top of each hour.';
	const group = GROUP_NAMES[request.group];
	const details = { rateLimitKind: kind, resetAt };
	if (kind === 'monthlyCap') {
		return {
			message: `SentiOne's monthly mentions cap is reached (429): at most ${plural(maximum, 'mention')} a month for this key.${resetText}`,
			description:
				'The cap covers every endpoint that returns mentions (search, export, live streams) and resets on the 1st of the month. Ask SentiOne about a higher cap.',
			details,
			failure: FAILURES.monthlyCapReached(resetAt, now),
		};
	}
	if (kind === 'concurrent') {
		return {
			message: `Too many open ${group} connections (429): at most ${plural(maximum, 'connection')} at a time for this key.`,
			description:
				'Another workflow (or another n8n instance) holds the stream connections of this key open. Close one, or wait and retry.',
			details,
			// a connection of the key frees up when another closes: no time is known
			failure: FAILURES.rateLimited(),
		};
	}
	// the hourly budget, when SentiOne says so (its words, or no request left); any other 429 is a
	// throttle whose wait is the reset when one is known
	const budgetSpent = statesHourlyBudget(said) || response.rateLimit?.remaining === 0;
	return {
		message: `SentiOne's ${group} budget is used up (429): at most ${plural(maximum, 'request')} an hour for this key.${resetText}`,
		description:
			request.group === 'search'
				? `Recent search and historical search share one budget of ${budget} requests an hour per API key, across every workflow using the key. Each page of ${PAGE_SIZES.search} mentions is one request. Lower the limit, use Export for bulk extraction, or set the rate-limit option to wait for the reset.`
				: `The ${group} allows ${plural(budget, 'request')} an hour per API key, shared by every workflow using it.`,
		details,
		failure: budgetSpent
			? FAILURES.hourlyBudgetSpent(resetAt, now)
			: FAILURES.rateLimited(resetAt !== undefined ? resetAt - now : undefined),
	};
}

function wordingFor(request: RequestInfo, response: ResponseInfo): Wording {
	const { statusCode, body } = response;
	const said = serverMessage(body);
	const saidOrBody = said ?? describeBody(body, response.contentType);
	const where = `${request.method} ${request.path}`;
	switch (statusCode) {
		case 400:
			return {
				message: `SentiOne rejected the request as malformed (400): ${saidOrBody}`,
				description: `A field has the wrong format (${where}). Dates must be ISO 8601 in UTC (e.g. 2026-11-21T10:00:00Z); lists must be lists. Correct the field named above and run again.`,
				failure: FAILURES.configurationInvalid(),
			};
		case 401:
			return unauthorized(request, said, saidOrBody, where);
		case 403:
			return {
				message: `SentiOne refused access (403): ${saidOrBody}`,
				description: `SentiOne's API answers a key or tier problem with 401, so a 403 on ${where} most likely means this API key's account may not see this project or mention (check the ID), or a proxy or firewall between n8n and SentiOne refused the request (check the credential's Base URL).`,
				failure: FAILURES.configurationInvalid(),
			};
		case 404:
		case 405:
			return notFound(request, statusCode, said, saidOrBody, where);
		case 406:
			return {
				message: `SentiOne refused the requested stream format (406): ${saidOrBody}`,
				description: 'Choose Server-Sent Events or JSON Lines as the stream format.',
				failure: FAILURES.configurationInvalid(),
			};
		case 415:
			return {
				message: `SentiOne refused the request's content type (415): ${saidOrBody}`,
				description:
					'Every request must carry Content-Type: application/json. The node sends it; a proxy between n8n and SentiOne may be stripping it.',
				failure: FAILURES.configurationInvalid(),
			};
		case 422:
			return rejectedValues(body, saidOrBody, where, request.zone ?? 'UTC');
		case 429:
			return rateLimited(request, response, said);
		default:
			return statusCode >= 500
				? {
						message: `SentiOne had a server error (${statusCode}): ${saidOrBody}`,
						description: `The service failed to handle ${where}. Reads are retried automatically; if this persists, try again later or enable Retry On Fail in the node settings.`,
						failure: FAILURES.temporarilyUnavailable(),
					}
				: {
						message: `SentiOne answered with an unexpected status ${statusCode}: ${saidOrBody}`,
						description: `The node does not expect status ${statusCode} from ${where}. Check the credential's Base URL points at the SentiOne API.`,
						// a request timeout (408) may pass; any other status points at the wrong server
						failure:
							statusCode === 408
								? FAILURES.temporarilyUnavailable()
								: FAILURES.configurationInvalid(),
					};
	}
}

/** Maps an HTTP answer that is not a success to the error the user sees. */
export function mapHttpError(
	node: INode,
	request: RequestInfo,
	response: ResponseInfo,
): NodeApiError {
	return apiError(node, request, response.statusCode, wordingFor(request, response));
}
