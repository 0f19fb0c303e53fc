/**
 * The items a Stream Trigger passed on under Options → Mark Delivered When = Execution Finished or
 * Execution Succeeded (issue 21.5; the rules: redeliveryPolicy.ts) whose delivery is not confirmed
 * yet: each is remembered, with a copy of itself, until n8n says its execution ended as asked;
 * after a failed one it is passed on again when its retry is due, under a new deduplication key
 * (attempt 2, 3 … of the same item: n8n refuses a second execution with a key it has seen, so a
 * retry needs its own key, while a repeat of the same attempt keeps the same key and is refused).
 *
 * Once delivered an item is forgotten here; the memory of ids (delivery.ts) keeps it from being
 * passed on again as new. What waits is saved with the stream's memory on every change
 * (streamState.ts `pending`), so a restart of n8n picks it up (`restore`). Bounded: REDELIVERY's
 * attempts, its wait for word from n8n, its count and size; whatever is given up is reported
 * (a failed execution naming the items), never dropped in silence.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { clock } from '../../shared/clock';
import { idKey } from '../../shared/text';
import { MINUTE_MS } from '../../shared/units';
import type { ExecutionOutcome, MarkDelivered } from './redeliveryPolicy';
import { REDELIVERY, retryDelay, retryScheduleText, verdict } from './redeliveryPolicy';
import type { SessionContext } from './sessionTypes';
import type { PendingItem } from './streamState';

interface Waiting extends PendingItem {
	/** epoch ms the running attempt was passed on (absent while it waits for a retry) */
	sentAt?: number;
	/** characters of the row as JSON */
	chars: number;
	/** restored after a restart while its attempt was running: passed on again under the same key */
	resend?: boolean;
}

type GiveUp = 'attempts' | 'noWord' | 'full';

/** Items named in a report at most. */
const NAMED = 20;

export class Redelivery {
	/** by key, in the order they were first passed on (a Map iterates in insertion order) */
	private readonly waiting = new Map<string, Waiting>();

	private chars = 0;

	/** items given up since the last report, by why */
	private readonly givenUp = new Map<GiveUp, string[]>();

	/** ends the loop's current wait (set while it waits) */
	private wake: (() => void) | undefined;

	private loop: Promise<void> | undefined;

	constructor(
		private readonly session: SessionContext,
		readonly mode: Exclude<MarkDelivered, 'emitted'>,
		/** saves the stream's memory, these items included (delivery.ts) */
		private readonly save: () => void,
	) {}

	/** Items waiting for their execution or a retry. */
	get size(): number {
		return this.waiting.size;
	}

	/** The items waiting, oldest first, as the memory saves them. */
	saved(): PendingItem[] {
		return [...this.waiting.values()].map(({ key, attempt, firstAt, retryAt, row }) => ({
			key,
			attempt,
			firstAt,
			...(retryAt === undefined ? {} : { retryAt }),
			row,
		}));
	}

	/**
	 * After a restart: the items the last run left waiting. One waiting for a retry keeps its due
	 * time. One whose attempt was running (or had ended after the last save) is passed on again
	 * under the same deduplication key where n8n has them: n8n starts it only if that execution was
	 * never created, and an existing one counts as delivered (unconfirmed). Without keys (n8n 1.x)
	 * it is taken as delivered, as the memory of ids is trusted there: nothing runs twice.
	 */
	restore(items: PendingItem[]): void {
		for (const item of items) {
			const running = item.retryAt === undefined;
			if (running && !this.session.hooks.deduplicates) {
				this.session.stats.unconfirmed++;
				continue;
			}
			this.add({ ...item, chars: JSON.stringify(item.row).length, resend: running });
		}
	}

	/** A new item (`key`: what it is known by): its first execution. */
	first(key: string, row: IDataObject): void {
		if (this.session.stopped) return;
		const known = idKey(key);
		// the same item again while it waits (a row without an id, found twice): once
		if (this.waiting.has(known)) return;
		const json = JSON.stringify(row);
		const item: Waiting = {
			key: known,
			attempt: 1,
			firstAt: clock.now(),
			// a copy of its own: the workflow may change the item it was given
			row: JSON.parse(json) as IDataObject,
			chars: json.length,
		};
		this.add(item);
		this.send(item);
		// the loop waits for word of it from now on
		this.wake?.();
	}

	/** Starts the loop that passes items on again when due (after the trigger's emit is wired). */
	start(): void {
		this.loop ??= this.run();
	}

	/** Resolves once the loop has ended (the session stopped). */
	async stop(): Promise<void> {
		this.wake?.();
		await this.loop;
		const { stats, hooks } = this.session;
		hooks.log(
			`SentiOne stream (Mark Delivered When: ${this.mode}): ${stats.delivered} item(s) delivered, ${stats.redelivered} passed on again, ${stats.unconfirmed} unconfirmed, ${stats.givenUp} given up, ${this.waiting.size} still waiting (saved for the next start)`,
		);
	}

	private add(item: Waiting): void {
		this.waiting.set(item.key, item);
		this.chars += item.chars;
		// bounded: the oldest waiting items are given up first (never the one just added)
		for (const oldest of this.waiting.values()) {
			const over =
				this.waiting.size > REDELIVERY.maxPending || this.chars > REDELIVERY.maxPendingChars;
			if (!over || oldest === item) break;
			this.giveUp(oldest, 'full');
		}
		if (this.givenUp.size > 0) this.wake?.();
	}

	private remove(item: Waiting): void {
		if (this.waiting.get(item.key) !== item) return;
		this.waiting.delete(item.key);
		this.chars -= item.chars;
	}

	/** One execution of the item: saved first (n8n writes static data when it starts one). */
	private send(item: Waiting): void {
		if (this.session.stopped) return;
		item.retryAt = undefined;
		item.resend = undefined;
		item.sentAt = clock.now();
		const number = item.attempt;
		this.save();
		this.session.hooks.emit(JSON.parse(JSON.stringify(item.row)) as IDataObject, item.key, {
			number,
			settled: (outcome) => this.settled(item, number, outcome),
		});
	}

	/** n8n settled attempt `number` of `item`. */
	private settled(item: Waiting, number: number, outcome: ExecutionOutcome): void {
		if (
			this.session.stopped ||
			this.waiting.get(item.key) !== item ||
			item.attempt !== number ||
			item.sentAt === undefined
		)
			return;
		const { stats, hooks } = this.session;
		const result = verdict(this.mode, outcome);
		item.sentAt = undefined;
		if (result === 'failed') {
			if (number >= REDELIVERY.maxAttempts) {
				this.giveUp(item, 'attempts');
			} else {
				const wait = retryDelay(number);
				item.retryAt = clock.now() + wait;
				hooks.log(
					`SentiOne stream: the execution of ${item.key} did not succeed (attempt ${number} of ${REDELIVERY.maxAttempts}); it is passed on again in ${wait / MINUTE_MS} minute(s)`,
				);
			}
		} else {
			this.remove(item);
			if (result === 'delivered') stats.delivered++;
			else {
				stats.unconfirmed++;
				hooks.log(
					`SentiOne stream: n8n started no new execution for ${item.key} (attempt ${number}): one with its deduplication key exists, so it is not passed on again`,
				);
			}
		}
		this.save();
		this.wake?.();
	}

	private giveUp(item: Waiting, why: GiveUp): void {
		this.remove(item);
		this.session.stats.givenUp++;
		const list = this.givenUp.get(why) ?? [];
		list.push(item.key);
		this.givenUp.set(why, list);
	}

	/**
	 * Passes on what is due (items restored running, retries whose time has come), gives up what
	 * n8n has said nothing of for too long, reports what was given up, and waits for the next due
	 * instant or a change.
	 */
	private async run(): Promise<void> {
		const { options, stats } = this.session;
		if (options.ready) await options.ready;
		while (!this.session.stopped) {
			const now = clock.now();
			let next = Infinity;
			for (const item of [...this.waiting.values()]) {
				if (this.session.stopped) return;
				if (item.resend) {
					this.send(item);
				} else if (item.retryAt !== undefined) {
					if (item.retryAt <= now) {
						item.attempt++;
						stats.redelivered++;
						this.send(item);
					} else next = Math.min(next, item.retryAt);
				}
				if (item.sentAt !== undefined && this.waiting.get(item.key) === item) {
					const deadline = item.sentAt + REDELIVERY.noWordMs;
					if (deadline <= now) this.giveUp(item, 'noWord');
					else next = Math.min(next, deadline);
				}
			}
			if (this.givenUp.size > 0) {
				this.save();
				this.report();
			}
			await this.pause(next - now);
		}
	}

	/** Waits `ms` on the node's clock (forever when not finite); ended early by `wake` or the session's close. */
	private async pause(ms: number): Promise<void> {
		if (this.session.stopped) return;
		const controller = new AbortController();
		const end = () => controller.abort();
		this.session.signal.addEventListener('abort', end, { once: true });
		this.wake = end;
		try {
			if (Number.isFinite(ms)) await clock.sleep(Math.max(0, ms), controller.signal);
			else
				await new Promise<void>((resolve) =>
					controller.signal.addEventListener('abort', () => resolve(), { once: true }),
				);
		} catch {
			// woken early, or the session closed
		} finally {
			this.session.signal.removeEventListener('abort', end);
			this.wake = undefined;
		}
	}

	/** One failed execution per reason, naming the items given up since the last report. */
	private report(): void {
		const { node, hooks } = this.session;
		for (const [why, keys] of this.givenUp) {
			const count = `${keys.length} item${keys.length === 1 ? '' : 's'}`;
			const named = `Given up: ${keys.slice(0, NAMED).join(', ')}${keys.length > NAMED ? ', …' : ''}.`;
			const texts: Record<GiveUp, { message: string; description: string }> = {
				attempts: {
					message: `${count} passed on by the SentiOne Stream Trigger ${keys.length === 1 ? 'was' : 'were'} given up: ${REDELIVERY.maxAttempts} executions of each did not ${this.mode === 'executionSucceeded' ? 'succeed' : 'run'}`,
					description: `Options → Mark Delivered When passes an item on again ${retryScheduleText()}. ${named} Their failed executions are in the workflow's list of executions, where each can be retried.`,
				},
				noWord: {
					message: `${count} passed on by the SentiOne Stream Trigger ${keys.length === 1 ? 'was' : 'were'} given up: n8n said nothing of ${keys.length === 1 ? 'its execution' : 'their executions'} within ${REDELIVERY.noWordMs / MINUTE_MS} minutes`,
					description: `An execution may still be running, or n8n may not have been able to create it (n8n 1.x does not say so). ${keys.length === 1 ? 'It is' : 'They are'} not passed on again, so nothing runs twice. ${named}`,
				},
				full: {
					message: `${count} passed on by the SentiOne Stream Trigger ${keys.length === 1 ? 'was' : 'were'} given up: more than ${REDELIVERY.maxPending} items (or ${REDELIVERY.maxPendingChars / 1024 / 1024} MB of them) were waiting for a successful execution`,
					description: `The trigger keeps what waits in its memory (saved with every execution it starts), so the oldest waiting items are given up first. ${named} A workflow that fails for every item needs fixing; Options → Mark Delivered When → Emitted passes each item on once without waiting.`,
				},
			};
			hooks.report(
				new NodeOperationError(node, texts[why].message, { description: texts[why].description }),
			);
		}
		this.givenUp.clear();
	}
}
