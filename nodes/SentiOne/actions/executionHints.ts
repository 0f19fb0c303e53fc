/**
 * What the operations of one execution have to tell the user besides their output, collected per
 * execution so each kind of notice appears once (as an execution hint), however many input items
 * ran: filters SentiOne did not apply, entries it sent that were not mentions, repeats it sent.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { UnconfirmedFilter } from '../shared/contract';
import type { PaginateResult } from '../shared/pager';
import { FilterVerifier, refusedNotice, verificationNotice } from '../shared/verify';

export class ExecutionHints {
	/** mentions dropped because they did not match the filters sent, all items together */
	readonly verifier = new FilterVerifier(undefined);

	/** requests spent by the operations whose results were verified */
	verifiedRequests = 0;

	/** entries of a page that were not objects */
	skipped = 0;

	/** items SentiOne returned twice within one item's paging */
	repeats = 0;

	/** notices that are already sentences (incomplete results and the like) */
	readonly messages: string[] = [];

	/** filters SentiOne refused the shape of: later items do not send them again */
	refused: UnconfirmedFilter[] = [];

	/** Remembers filters SentiOne refused (told once, with the refusal, when newly refused). */
	refusedFilters(dropped: UnconfirmedFilter[], refusal: unknown): void {
		const fresh = dropped.filter((name) => !this.refused.includes(name));
		if (fresh.length === 0) return;
		this.refused = [...this.refused, ...fresh];
		this.messages.push(refusedNotice(fresh, refusal));
	}

	/** Adds what SentiOne sent while paging that was not passed on: entries that are not records, repeats. */
	paged(result: Pick<PaginateResult<unknown>, 'skipped' | 'repeats'>): void {
		this.skipped += result.skipped;
		this.repeats += result.repeats;
	}

	/** Adds one operation's verification (its verifier and the requests that fed it). */
	verified(verifier: FilterVerifier, requests: number): void {
		this.verifier.absorb(verifier);
		this.verifiedRequests += requests;
	}

	/** Shows every notice once, in the output pane. */
	show(ctx: IExecuteFunctions): void {
		const hints: string[] = [...this.messages];
		const spent = `${this.verifiedRequests === 1 ? 'The request' : `The ${this.verifiedRequests} requests`} that fetched them ${this.verifiedRequests === 1 ? 'was' : 'were'} counted against SentiOne's budget all the same.`;
		const notice = verificationNotice(this.verifier, spent, this.refused);
		if (notice) hints.push(notice);
		if (this.skipped > 0) {
			hints.push(
				`SentiOne sent ${this.skipped} entr${this.skipped === 1 ? 'y' : 'ies'} that ${this.skipped === 1 ? 'was' : 'were'} not an object (null, a number, a text or a list) where a record belongs; ${this.skipped === 1 ? 'it was' : 'they were'} skipped.`,
			);
		}
		if (this.repeats > 0) {
			hints.push(
				`SentiOne returned ${this.repeats} record${this.repeats === 1 ? '' : 's'} a second time while paging; each is in the output once.`,
			);
		}
		for (const message of hints)
			ctx.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
	}
}
