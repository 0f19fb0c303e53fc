/**
 * The local inbox: a stand-in for the services the templates in examples/ talk to that a demo (or
 * a test) machine cannot reach — Slack, Google Sheets and an OpenAI chat model — and the
 * "demo variants" of those templates that talk to it instead.
 *
 * - `POST /slack/api/chat.postMessage`  {channel, text, ref?}: stored as a Slack message (`ref`: the
 *   mention it is about, kept for the tests, not shown)
 * - `POST /sheets/v4/spreadsheets/<id>/values/<range>:append`  {columns, values}: appended to one
 *   sheet the way n8n's Google Sheets node appends to an empty sheet — the first row's column names
 *   become the header, later rows are placed by name, and a row whose columns differ from the
 *   header (other names or another order) is recorded as a mismatch
 * - `POST /v1/chat/completions`, `GET /v1/models`: a *scripted* OpenAI-compatible chat model (not
 *   an LLM): it lists the SentiOne projects, runs one mention search with filters taken from the
 *   question, and summarises the rows — enough to run the AI agent template with the real SentiOne
 *   tool against the simulator
 * - `GET /` an HTML page of all of it (refreshes itself), `GET /inbox.json` the same as JSON,
 *   `DELETE /inbox.json` empties it
 * - an outage of the Slack stand-in, for tests: while `state.slackOutage` is true a message is
 *   refused with 503 `{ok: false, error: 'service_unavailable'}` (counted in `state.slackRefused`)
 *
 * `demoVariant(template, …)` turns a template into its runnable demo variant: the Slack and Google
 * Sheets nodes become HTTP Request nodes posting the same content to the inbox, the OpenAI chat
 * model points at the inbox, files are written into the demo's folder. The SentiOne nodes stay as
 * they are (the templates name no credential: whoever imports a variant chooses one, as the
 * gulpfile does). Plain CommonJS, no dependencies: the gulpfile, the tests and the screenshots use it.
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const SHEET_RANGE = 'Mentions!A1';

function readBody(req) {
	return new Promise((resolve, reject) => {
		let body = '';
		req.setEncoding('utf8');
		req.on('data', (d) => (body += d));
		req.on('end', () => resolve(body));
		req.on('error', reject);
	});
}

function sendJson(res, status, value) {
	const text = JSON.stringify(value);
	res.writeHead(status, {
		'content-type': 'application/json',
		'content-length': Buffer.byteLength(text),
	});
	res.end(text);
}

const escapeHtml = (v) =>
	String(v ?? '').replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
	);

/** The emoji codes the templates use, as Slack shows them. */
const EMOJI = {
	rotating_light: '🚨',
	chart_with_upwards_trend: '📈',
	white_check_mark: '✅',
	newspaper: '📰',
	zzz: '💤',
	fire: '🔥',
};

/** Slack mrkdwn, just enough for the inbox page: *bold*, >quote, <url|label>, bare links, :emoji:. */
function slackToHtml(text) {
	return String(text ?? '')
		.split('\n')
		.map((line) => {
			const quoted = line.startsWith('>');
			let html = escapeHtml(quoted ? line.slice(1) : line)
				.replace(/&lt;(https?:\/\/[^|&]+)\|([^&]+)&gt;/g, '<a href="$1">$2</a>')
				.replace(/(^|[\s(])(https?:\/\/[^\s<&]+)/g, '$1<a href="$2">$2</a>')
				.replace(/\*([^*\n]+)\*/g, '<b>$1</b>')
				.replace(/:([a-z_]+):/g, (code, name) => EMOJI[name] ?? code);
			if (quoted) html = `<blockquote>${html}</blockquote>`;
			return html;
		})
		.join('<br>');
}

// ---------------------------------------------------------------- the scripted chat model

const textOf = (content) =>
	typeof content === 'string'
		? content
		: Array.isArray(content)
			? content.map((p) => (typeof p === 'string' ? p : (p?.text ?? ''))).join('')
			: '';

/** Every object in a tool result that looks like a row (has the given key), however it is wrapped. */
function rowsIn(value, key, out = []) {
	if (typeof value === 'string') {
		try {
			return rowsIn(JSON.parse(value), key, out);
		} catch {
			return out;
		}
	}
	if (Array.isArray(value)) value.forEach((v) => rowsIn(v, key, out));
	else if (value && typeof value === 'object') {
		if (key in value) out.push(value);
		else Object.values(value).forEach((v) => rowsIn(v, key, out));
	}
	return out;
}

const STOP_WORDS = new Set(
	'the a an and or of to in on for with is are was were it this that my our your at by from be not no but as have has had i you we they he she its their them about just very so out up what when who how all can will would there here more some than then too only also into over after before new get got one two like really any been being do does did don t s'.split(
		' ',
	),
);

function summarise(project, rows, filters) {
	const count = (key) => {
		const m = new Map();
		for (const r of rows) m.set(r[key] ?? 'unknown', (m.get(r[key] ?? 'unknown') ?? 0) + 1);
		return [...m.entries()].sort((a, b) => b[1] - a[1]);
	};
	const words = new Map();
	const projectWords = new Set(
		String(project?.name ?? '')
			.toLowerCase()
			.split(/\W+/),
	);
	for (const r of rows) {
		for (const w of String(r.text ?? '')
			.toLowerCase()
			.split(/[^\p{L}]+/u)) {
			if (
				w.length > 3 &&
				!STOP_WORDS.has(w) &&
				![...projectWords].some((p) => p.length > 3 && w.includes(p))
			)
				words.set(w, (words.get(w) ?? 0) + 1);
		}
	}
	const themes = [...words.entries()]
		.sort((a, b) => b[1] - a[1])
		.slice(0, 6)
		.map(([w]) => w);
	const examples = rows
		.slice()
		.sort((a, b) => (Number(b.influenceScore) || 0) - (Number(a.influenceScore) || 0))
		.slice(0, 3)
		.map(
			(r) =>
				`- ${String(r.text ?? '')
					.replace(/\s+/g, ' ')
					.slice(
						0,
						140,
					)} (${r.sourceType ?? 'unknown source'}, ${r.sentiment ?? 'no sentiment'}) ${r.url ?? ''}`,
		);
	const what = filters.sentiments ? `${filters.sentiments.toLowerCase()} mentions` : 'mentions';
	return [
		`${project ? `${project.name} (project ${project.id})` : 'The project'}: the ${rows.length} newest ${what} published in the last ${filters.days} days.`,
		rows.length
			? `By sentiment: ${count('sentiment')
					.map(([k, v]) => `${k} ${v}`)
					.join(', ')}. By source: ${count('sourceType')
					.slice(0, 4)
					.map(([k, v]) => `${k} ${v}`)
					.join(', ')}.`
			: 'Nothing matched.',
		themes.length ? `Frequent words: ${themes.join(', ')}.` : '',
		examples.length ? `Most influential:\n${examples.join('\n')}` : '',
		'',
		"(Answered by the demo's scripted chat model: it always lists the projects, runs one search through the SentiOne tool and summarises the rows it got. A real model chooses its own filters and writes a real answer.)",
	]
		.filter((l) => l !== '')
		.join('\n');
}

/** One turn of the scripted model: the next tool call, or the final answer. */
function scriptedTurn(body) {
	const messages = Array.isArray(body.messages) ? body.messages : [];
	const tools = (Array.isArray(body.tools) ? body.tools : [])
		.map((t) => t.function ?? t)
		.filter((t) => t?.name);
	const lastUser = messages.map((m) => m.role).lastIndexOf('user');
	const question = lastUser >= 0 ? textOf(messages[lastUser].content) : '';
	const since = messages.slice(lastUser + 1);
	const callNames = new Map();
	for (const m of since) for (const c of m.tool_calls ?? []) callNames.set(c.id, c.function?.name);
	const results = since
		.filter((m) => m.role === 'tool')
		.map((m) => ({ tool: callNames.get(m.tool_call_id), content: m.content }));
	const listTool = tools.find((t) => /project/i.test(t.name) && !/search|mention/i.test(t.name));
	const searchTool = tools.find((t) => /search|mention/i.test(t.name));

	const listed = results.find((r) => listTool && r.tool === listTool.name);
	const searched = results.find((r) => searchTool && r.tool === searchTool.name);
	const projects = listed ? rowsIn(listed.content, 'name').filter((p) => p.id !== undefined) : [];
	const q = question.toLowerCase();
	const project =
		projects.find((p) =>
			String(p.name)
				.toLowerCase()
				.split(/\W+/)
				.some((w) => w.length > 3 && q.includes(w)),
		) ?? projects[0];
	const days = Math.min(
		7,
		Math.max(1, Number(/(\d+)\s*days?/.exec(q)?.[1]) || (/today|24 ?h/.test(q) ? 1 : 7)),
	);
	const sentiments = /complain|negative|angry|problem|issue|bad/.test(q)
		? 'Negative'
		: /praise|positive|love|happy|good/.test(q)
			? 'Positive'
			: '';
	const filters = { days, sentiments };

	if (!listed && listTool && !searched) return { call: { name: listTool.name, args: {} } };
	if (!searched && searchTool) {
		const props = searchTool.parameters?.properties ?? {};
		const args = {};
		for (const key of Object.keys(props)) {
			if (/project/i.test(key)) args[key] = Number(project?.id ?? 1001);
			else if (/limit/i.test(key)) args[key] = 25;
			else if (/days/i.test(key)) args[key] = days;
			else if (/sentiment/i.test(key)) args[key] = sentiments;
			else args[key] = props[key]?.type === 'number' ? 0 : '';
		}
		return { call: { name: searchTool.name, args } };
	}
	const rows = searched ? rowsIn(searched.content, 'sentiment') : [];
	if (
		searched &&
		rows.length === 0 &&
		/error|fail|refused|budget/i.test(textOf(searched.content))
	) {
		return {
			text: `The SentiOne tool reported a problem: ${textOf(searched.content).slice(0, 400)}`,
		};
	}
	return { text: summarise(project, rows, filters) };
}

function chatCompletion(body, res, log) {
	const turn = scriptedTurn(body);
	log.push({
		at: new Date().toISOString(),
		question: textOf([...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content),
		reply: turn,
	});
	const id = `chatcmpl-demo-${log.length}`;
	const created = Math.floor(Date.now() / 1000);
	const model = body.model || 'demo-model';
	const toolCall = turn.call
		? {
				id: `call_demo_${log.length}`,
				type: 'function',
				function: { name: turn.call.name, arguments: JSON.stringify(turn.call.args) },
			}
		: undefined;
	const usage = { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 };
	if (body.stream) {
		res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
		const chunk = (delta, finish) =>
			res.write(
				`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
			);
		if (toolCall) {
			chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, ...toolCall }] }, null);
			chunk({}, 'tool_calls');
		} else {
			chunk({ role: 'assistant', content: '' }, null);
			for (const piece of turn.text.match(/[\s\S]{1,80}/g) ?? []) chunk({ content: piece }, null);
			chunk({}, 'stop');
		}
		if (body.stream_options?.include_usage)
			res.write(
				`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`,
			);
		res.end('data: [DONE]\n\n');
		return;
	}
	sendJson(res, 200, {
		id,
		object: 'chat.completion',
		created,
		model,
		choices: [
			{
				index: 0,
				message: toolCall
					? { role: 'assistant', content: null, tool_calls: [toolCall] }
					: { role: 'assistant', content: turn.text },
				finish_reason: toolCall ? 'tool_calls' : 'stop',
			},
		],
		usage,
	});
}

// ---------------------------------------------------------------- the inbox server

/** When a message arrived, as Slack shows it: "Wed 14:05:09 UTC". */
function shownTime(iso, timeZone) {
	const parts = new Intl.DateTimeFormat('en-GB', {
		timeZone,
		weekday: 'short',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
		hourCycle: 'h23',
		timeZoneName: 'short',
	}).formatToParts(new Date(iso));
	const part = (type) => parts.find((p) => p.type === type)?.value ?? '';
	return `${part('weekday')} ${part('hour')}:${part('minute')}:${part('second')} ${part('timeZoneName')}`;
}

function page(state, filesDir, timeZone) {
	const files = [];
	if (filesDir && fs.existsSync(filesDir)) {
		const walk = (dir) => {
			for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
				const p = path.join(dir, e.name);
				if (e.isDirectory()) walk(p);
				else files.push({ name: path.relative(filesDir, p), size: fs.statSync(p).size });
			}
		};
		walk(filesDir);
	}
	const { header, rows, mismatches } = state.sheet;
	return `<!doctype html><html><head><meta charset="utf-8"><title>Local inbox — SentiOne demo</title>
<meta http-equiv="refresh" content="10">
<style>body{font:14px system-ui,sans-serif;margin:24px;color:#222}h1{font-size:20px}h2{font-size:16px;margin-top:28px}
.msg{border-left:4px solid #e01e5a;background:#f8f8f8;padding:8px 12px;margin:8px 0;max-width:900px}
.meta{color:#777;font-size:12px}blockquote{margin:4px 0;padding-left:8px;border-left:3px solid #ccc;color:#444}
table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ddd;padding:3px 6px;max-width:260px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
th{background:#f0f4f0}.warn{color:#b00}</style></head><body>
<h1>Local inbox</h1><p>Stands in for Slack, Google Sheets and the chat model of the SentiOne demo. Refreshes every 10 s.</p>
<h2>Slack: ${state.slack.length} message${state.slack.length === 1 ? '' : 's'}</h2>
${state.slack
	.slice()
	.reverse()
	.slice(0, 100)
	.map(
		(m) =>
			`<div class="msg"><div class="meta">${escapeHtml(m.channel)} · ${escapeHtml(shownTime(m.at, timeZone))}</div>${slackToHtml(m.text)}</div>`,
	)
	.join('\n')}
<h2>Google Sheets (${SHEET_RANGE.split('!')[0]}): ${rows.length} row${rows.length === 1 ? '' : 's'}</h2>
${mismatches.length ? `<p class="warn">${mismatches.length} row(s) arrived with other columns than the header.</p>` : ''}
${
	header
		? `<table><tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>${rows
				.slice(-200)
				.map(
					(r) =>
						`<tr>${r.map((v) => `<td title="${escapeHtml(v)}">${escapeHtml(v)}</td>`).join('')}</tr>`,
				)
				.join('')}</table>`
		: '<p>No rows yet.</p>'
}
<h2>Files written by the demo workflows</h2>
${files.length ? `<ul>${files.map((f) => `<li>${escapeHtml(f.name)} (${f.size} bytes)</li>`).join('')}</ul>` : '<p>None yet.</p>'}
<h2>Scripted chat model: ${state.llm.length} call${state.llm.length === 1 ? '' : 's'}</h2>
</body></html>`;
}

/**
 * Starts the inbox on 127.0.0.1. `filesDir`: where the demo workflows write files (listed on the
 * page); `timeZone`: the one the page shows arrival times in (the demo workflows'). Resolves with
 * `{ base, port, state, stop() }`; `state` is live: `{slack, sheet, llm, requests, slackOutage,
 * slackRefused}`.
 */
function startInbox({ port = 0, host = '127.0.0.1', filesDir, timeZone = 'UTC' } = {}) {
	const state = {
		slack: [],
		sheet: { header: null, rows: [], records: [], mismatches: [] },
		llm: [],
		requests: 0,
		slackOutage: false,
		slackRefused: 0,
	};
	const reset = () => {
		state.slack.length = 0;
		state.sheet = { header: null, rows: [], records: [], mismatches: [] };
		state.llm.length = 0;
	};
	const server = http.createServer(async (req, res) => {
		try {
			state.requests++;
			const url = new URL(req.url, 'http://inbox');
			const raw = req.method === 'POST' ? await readBody(req) : '';
			let body = {};
			if (raw) {
				try {
					body = JSON.parse(raw);
				} catch {
					return sendJson(res, 400, { ok: false, error: 'invalid_json' });
				}
			}
			if (req.method === 'POST' && url.pathname === '/slack/api/chat.postMessage') {
				if (state.slackOutage) {
					state.slackRefused++;
					return sendJson(res, 503, { ok: false, error: 'service_unavailable' });
				}
				if (typeof body.text !== 'string' || !body.channel)
					return sendJson(res, 200, { ok: false, error: 'no_text' });
				const ts = `${Math.floor(Date.now() / 1000)}.${String(state.slack.length + 1).padStart(6, '0')}`;
				state.slack.push({
					at: new Date().toISOString(),
					channel: String(body.channel),
					text: body.text,
					ts,
					// the mention the message is about, when the stand-in names it (not shown)
					...(typeof body.ref === 'string' && body.ref !== '' ? { ref: body.ref } : {}),
				});
				return sendJson(res, 200, {
					ok: true,
					channel: body.channel,
					ts,
					message: { type: 'message', text: body.text, ts },
				});
			}
			const append = /^\/sheets\/v4\/spreadsheets\/([^/]+)\/values\/(.+):append$/.exec(
				url.pathname,
			);
			if (req.method === 'POST' && append) {
				const columns = Array.isArray(body.columns) ? body.columns.map(String) : null;
				const values = Array.isArray(body.values) ? body.values : null;
				if (!columns || !values)
					return sendJson(res, 400, {
						error: { code: 400, message: 'columns and values are required' },
					});
				const sheet = state.sheet;
				if (!sheet.header) sheet.header = columns.slice();
				for (const row of values) {
					const record = Object.fromEntries(columns.map((c, i) => [c, row[i] ?? null]));
					if (
						columns.length !== sheet.header.length ||
						columns.some((c, i) => c !== sheet.header[i])
					) {
						sheet.mismatches.push({ columns, header: sheet.header });
					}
					sheet.records.push(record);
					sheet.rows.push(
						sheet.header.map((h) =>
							record[h] === null || record[h] === undefined ? '' : record[h],
						),
					);
				}
				const n = sheet.rows.length + 1;
				return sendJson(res, 200, {
					spreadsheetId: append[1],
					tableRange: decodeURIComponent(append[2]),
					updates: {
						spreadsheetId: append[1],
						updatedRange: `Mentions!A${n}`,
						updatedRows: values.length,
						updatedCells: values.length * columns.length,
					},
				});
			}
			if (req.method === 'POST' && url.pathname === '/v1/chat/completions')
				return chatCompletion(body, res, state.llm);
			if (req.method === 'GET' && url.pathname === '/v1/models') {
				return sendJson(res, 200, {
					object: 'list',
					data: ['gpt-4.1-mini', 'gpt-4o-mini'].map((id) => ({
						id,
						object: 'model',
						created: 0,
						owned_by: 'demo',
					})),
				});
			}
			if (url.pathname === '/inbox.json') {
				if (req.method === 'DELETE') reset();
				return sendJson(res, 200, state);
			}
			if (req.method === 'GET' && url.pathname === '/') {
				const html = page(state, filesDir, timeZone);
				res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
				return res.end(html);
			}
			return sendJson(res, 404, { ok: false, error: 'not_found' });
		} catch (error) {
			return sendJson(res, 500, { ok: false, error: String(error) });
		}
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			const actual = server.address().port;
			resolve({
				base: `http://${host}:${actual}`,
				port: actual,
				state,
				reset,
				stop: () =>
					new Promise((done) => {
						server.close(() => done());
						server.closeAllConnections?.();
					}),
			});
		});
	});
}

// ---------------------------------------------------------------- demo variants of the templates

const HTTP_REQUEST = { type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2 };
const TEMPLATE_FILES_DIR = '/home/node/.n8n-files';

/**
 * The Slack message node's channel and text, as an HTTP Request to the inbox (same expressions),
 * plus `ref`: the ID of the mention the item is about, if any. Not part of the message (the page
 * does not show it): the tests match each message to the simulator's mention with it, now that
 * the templates' texts name no ID.
 */
function slackStandIn(node, inbox) {
	const p = node.parameters;
	const channel = p.channelId && typeof p.channelId === 'object' ? p.channelId.value : p.channelId;
	return {
		...HTTP_REQUEST,
		parameters: {
			method: 'POST',
			url: `${inbox}/slack/api/chat.postMessage`,
			sendBody: true,
			bodyParameters: {
				parameters: [
					{ name: 'channel', value: channel },
					{ name: 'text', value: p.text },
					{ name: 'ref', value: "={{ $json.id ?? $json.mentionId ?? '' }}" },
				],
			},
			options: {},
		},
	};
}

/** Google Sheets "append, map automatically": the item's columns and values, in the item's order. */
function sheetsStandIn(node, inbox) {
	const document = node.parameters.documentId?.value || 'demo-spreadsheet';
	return {
		...HTTP_REQUEST,
		parameters: {
			method: 'POST',
			url: `${inbox}/sheets/v4/spreadsheets/${encodeURIComponent(document)}/values/${encodeURIComponent(SHEET_RANGE)}:append`,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: `={{ JSON.stringify({ range: '${SHEET_RANGE}', majorDimension: 'ROWS', columns: Object.keys($json), values: [Object.values($json)] }) }}`,
			options: {},
		},
	};
}

/**
 * The runnable demo variant of a template. `inbox`: the inbox base URL; `filesDir`: where files go
 * instead of /home/node/.n8n-files (`filesLabel`: how the sticky note names it); `openAiCredential`: `{id, name}` of an OpenAI credential whose
 * Base URL is `<inbox>/v1`.
 */
function demoVariant(template, { inbox, filesDir, filesLabel, openAiCredential } = {}) {
	const w = structuredClone(template);
	w.id = `${template.id}Demo`;
	w.name = `Demo: ${template.name.replace(/^SentiOne: /, '')} (local inbox)`;
	w.versionId = undefined;
	delete w.versionId;
	const renamed = new Map();
	const standIns = [];
	w.nodes = w.nodes.map((node) => {
		if (node.type === 'n8n-nodes-base.slack' && inbox) {
			standIns.push(`Slack is replaced by the local inbox (${inbox})`);
			renamed.set(node.name, `${node.name} (inbox)`);
			return {
				...node,
				...slackStandIn(node, inbox),
				name: `${node.name} (inbox)`,
				credentials: undefined,
				webhookId: undefined,
			};
		}
		if (node.type === 'n8n-nodes-base.googleSheets' && inbox) {
			standIns.push(`Google Sheets is replaced by the local inbox (${inbox})`);
			renamed.set(node.name, `${node.name} (inbox)`);
			return {
				...node,
				...sheetsStandIn(node, inbox),
				name: `${node.name} (inbox)`,
				credentials: undefined,
			};
		}
		if (node.type === '@n8n/n8n-nodes-langchain.lmChatOpenAi' && openAiCredential) {
			standIns.push(
				`the OpenAI Chat Model talks to a scripted stand-in in the local inbox (${inbox}/v1): not an LLM, it lists the projects, runs one search with the SentiOne tool and summarises the rows`,
			);
			return {
				...node,
				parameters: { ...node.parameters, responsesApiEnabled: false },
				credentials: { openAiApi: openAiCredential },
			};
		}
		if (
			node.type === 'n8n-nodes-base.readWriteFile' &&
			filesDir &&
			typeof node.parameters.fileName === 'string'
		) {
			return {
				...node,
				parameters: {
					...node.parameters,
					fileName: node.parameters.fileName.split(TEMPLATE_FILES_DIR).join(filesDir),
				},
			};
		}
		if (node.webhookId) return { ...node, webhookId: `${node.webhookId.slice(0, -4)}d3m0` };
		return node;
	});
	for (const node of w.nodes) {
		for (const key of Object.keys(node)) if (node[key] === undefined) delete node[key];
	}
	const rename = (name) => renamed.get(name) ?? name;
	w.connections = Object.fromEntries(
		Object.entries(w.connections).map(([from, outputs]) => [
			rename(from),
			Object.fromEntries(
				Object.entries(outputs).map(([kind, lists]) => [
					kind,
					lists.map((list) => (list ?? []).map((c) => ({ ...c, node: rename(c.node) }))),
				]),
			),
		]),
	);
	const note = w.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote');
	if (note) {
		const writesFiles = filesDir && w.nodes.some((n) => n.type === 'n8n-nodes-base.readWriteFile');
		const files = writesFiles
			? ` Files go to \`${filesLabel ?? filesDir}\` instead of \`${TEMPLATE_FILES_DIR}\`.`
			: '';
		note.parameters = {
			...note.parameters,
			height: 200,
			content: `## Demo variant of “${template.name.replace(/^SentiOne: /, '')}”\nThe SentiOne nodes are the template's own, on a credential of the demo, and run against the local SentiOne simulator.${standIns.length ? ` The demo cannot reach the outside world, so ${standIns.join('; ')}.` : ''}${files} The template itself is imported too (only its SentiOne credential chosen): *${template.name}*.`,
		};
	}
	return w;
}

module.exports = { startInbox, demoVariant, scriptedTurn, SHEET_RANGE, TEMPLATE_FILES_DIR };
