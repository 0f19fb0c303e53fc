// The stream endpoints (D-23): recent and historical export, the live stream of mentions, and
// the engagement updates firehose.

import { findProject, formatError, jsonBody, projectIdParam, type ApiCtx } from './context.ts';
import { badRequest, hasErrors, unprocessable } from './http.ts';
import { matcher, scan } from './search.ts';
import {
	CONTENT_TYPES,
	mentionJson,
	StreamWriter,
	updateJson,
	type EngagementUpdate,
	type Framing,
} from './streams.ts';
import type { Rec } from './types.ts';
import {
	analyzeSearch,
	checkAnonymization,
	checkBackfill,
	checkLimit,
	intParam,
	isPlainObject,
	parseBody,
	type Anonymization,
} from './validate.ts';

const BATCH_BYTES = 64 * 1024;

/** Send the 200 and the stream headers; take the concurrency slot until the connection closes. */
function openStream(
	ctx: ApiCtx,
	framing: Framing,
): { writer: StreamWriter; onClose: Array<() => void> } {
	const { state, res } = ctx;
	const release = state.limits.acquire(ctx.tier, ctx.route.group);
	const sf = { ...state.faults.stream };
	let drop = false;
	if (sf.dropAfterBytes !== undefined) {
		const left = state.faults.stream.dropTimes;
		if (left === undefined) drop = true;
		else if (left > 0) {
			drop = true;
			state.faults.stream.dropTimes = left - 1;
		}
	}
	const onClose: Array<() => void> = [];
	const writer: StreamWriter = new StreamWriter({
		res,
		framing,
		clock: state.clock,
		heartbeatMs: sf.heartbeatMs ?? state.opts.heartbeatMs,
		legacyHeartbeat: state.opts.legacyHeartbeat || sf.legacyHeartbeat === true,
		faults: sf,
		drop,
		onClose: () => {
			release();
			state.streams.delete(writer);
			for (const f of onClose) f();
		},
	});
	state.streams.add(writer);
	res.socket?.setNoDelay(true);
	res.writeHead(200, {
		'content-type': CONTENT_TYPES[framing],
		'cache-control': 'no-cache',
		connection: 'keep-alive',
		'x-accel-buffering': 'no',
		...ctx.headers(),
	});
	res.flushHeaders();
	ctx.entry.status = 200;
	// D-29; variant exportHeartbeats=off: export streams stay silent between events
	if (!(ctx.route.group === 'export' && state.variant.exportHeartbeats === 'off'))
		writer.startHeartbeats();
	return { writer, onClose };
}

export function exportStream(ctx: ApiCtx, mode: 'recent' | 'historical', framing: Framing): void {
	const { state } = ctx;
	const id = projectIdParam(ctx);
	const body = jsonBody(ctx);
	const a = analyzeSearch(body, mode, ctx.now, `${id}:${ctx.route.name}`, state.variant);
	const format = [...a.format];
	const limit = intParam(ctx.query.get('limit'), 'limit', format);
	if (format.length) formatError(format);
	const project = findProject(ctx, id);
	const fields = { ...a.fields };
	checkLimit(limit, fields);
	const anonymization = checkAnonymization(ctx.query, state.variant.anonymization, fields);
	if (hasErrors(fields)) throw unprocessable(fields);

	const { writer } = openStream(ctx, framing);
	const recs = scan({
		store: state.store,
		project,
		request: a.request!,
		mode,
		visibility: { now: ctx.now, indexLagMs: state.faults.indexLagMs },
		bigCounts: state.variant.bigCounts === 'on',
		snapshot: true,
	});
	void runExport(ctx, writer, recs, limit, anonymization);
}

async function runExport(
	ctx: ApiCtx,
	writer: StreamWriter,
	recs: Iterable<Rec>,
	limit: number | undefined,
	anonymization: Anonymization,
): Promise<void> {
	const { state, tier } = ctx;
	let capLeft = state.limits.monthlyRemaining(tier, ctx.now);
	let sent = 0;
	let uncounted = 0;
	let batch = '';
	let capped = false;
	for (const rec of recs) {
		if (writer.closed || writer.stalled) break;
		if (limit !== undefined && sent >= limit) break;
		if (capLeft <= 0) {
			capped = true;
			break;
		}
		batch += writer.dataFrame(
			'mention',
			mentionJson(rec, anonymization, state.variant.bigCounts === 'on'),
			rec.id,
		);
		sent++;
		capLeft--;
		uncounted++;
		if (batch.length >= BATCH_BYTES) {
			state.limits.addMonthly(tier, uncounted, state.clock.now());
			uncounted = 0;
			await writer.send(batch);
			batch = '';
		}
	}
	state.limits.addMonthly(tier, uncounted, state.clock.now());
	await writer.send(batch);
	if (writer.closed || writer.stalled) return; // a stalled stream stays open, silent
	// Cut by the monthly cap: break the connection rather than pretend the export is complete.
	if (capped) writer.destroy(true);
	else await writer.end();
}

function shuffle<T>(ctx: ApiCtx, items: T[]): T[] {
	return ctx.state.faultRng.shuffle(items);
}

export function liveStream(ctx: ApiCtx, framing: Framing): void {
	const { state } = ctx;
	const id = projectIdParam(ctx);
	const body = jsonBody(ctx);
	const a = analyzeSearch(body, 'live', ctx.now, `${id}:${ctx.route.name}`, state.variant);
	const format = [...a.format];
	const backfill = intParam(ctx.query.get('backfillMinutes'), 'backfillMinutes', format);
	if (format.length) formatError(format);
	const project = findProject(ctx, id);
	const fields = { ...a.fields };
	checkBackfill(backfill, fields);
	const anonymization = checkAnonymization(ctx.query, state.variant.anonymization, fields);
	if (hasErrors(fields)) throw unprocessable(fields);

	const filters = a.request!.filters;
	const { writer, onClose } = openStream(ctx, framing);
	let capLeft = state.limits.monthlyRemaining(ctx.tier, ctx.now);
	const deliver = (recs: Rec[]) => {
		if (writer.closed || writer.stalled) return;
		const now = state.clock.now();
		const match = matcher(filters, 'live', now);
		let text = '';
		let n = 0;
		for (const r of recs) {
			if (r.col > now || !match(r)) continue;
			if (capLeft <= 0) {
				state.limits.addMonthly(ctx.tier, n, now);
				void writer.send(text).then(() => writer.destroy(true));
				return;
			}
			text += writer.dataFrame(
				'mention',
				mentionJson(r, anonymization, state.variant.bigCounts === 'on'),
				r.id,
			);
			capLeft--;
			n++;
		}
		state.limits.addMonthly(ctx.tier, n, now);
		void writer.send(text);
	};
	if (backfill) {
		const since = ctx.now - backfill * 60_000;
		deliver(
			shuffle(
				ctx,
				project.recs.filter((r) => r.col >= since && r.col <= ctx.now),
			),
		);
	}
	const sub = { projectId: project.id, deliver };
	state.hub.live.add(sub);
	onClose.push(() => state.hub.live.delete(sub));
}

export function engagementStream(ctx: ApiCtx, framing: Framing): void {
	const { state } = ctx;
	const format: string[] = [];
	if (ctx.body.trim() !== '') {
		const parsed = parseBody(ctx.body);
		if (!parsed.ok) throw badRequest(parsed.message);
		if (!isPlainObject(parsed.value)) format.push('Request body must be a JSON object ({}).');
	}
	const backfill = intParam(ctx.query.get('backfillMinutes'), 'backfillMinutes', format);
	if (format.length) formatError(format);
	const fields = {};
	checkBackfill(backfill, fields);
	if (hasErrors(fields)) throw unprocessable(fields);

	const { writer, onClose } = openStream(ctx, framing);
	const deliver = (updates: EngagementUpdate[]) => {
		if (writer.closed || writer.stalled) return;
		let text = '';
		const { engagementPayload, bigCounts } = state.variant;
		for (const u of updates) {
			text += writer.dataFrame(
				'engagementUpdate',
				updateJson(u, engagementPayload, bigCounts === 'on'),
				`${u.mentionId}:${u.updatedAt}`,
			);
		}
		void writer.send(text);
	};
	if (backfill) {
		const since = ctx.now - backfill * 60_000;
		deliver(
			shuffle(
				ctx,
				state.collector.engagementLog.filter((e) => e.at >= since).map((e) => e.update),
			),
		);
	}
	const sub = { deliver };
	state.hub.engagement.add(sub);
	onClose.push(() => state.hub.engagement.delete(sub));
}
