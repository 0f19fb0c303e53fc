/**
 * Runs an async step and hands back its value or its error, so the caller can decide outside a
 * `catch` block (where rethrowing a caught error as it is would be flagged).
 */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export async function attempt<T>(step: () => Promise<T>): Promise<Outcome<T>> {
	try {
		return { ok: true, value: await step() };
	} catch (error) {
		return { ok: false, error };
	}
}
