/** Types of secretsReporter.js (a jest reporter, plain CommonJS). */
declare class SecretsReporter {
	constructor(
		globalConfig: Record<string, unknown>,
		options?: { results?: boolean; quiet?: boolean; scope?: string },
	);
	onRunStart(): void;
	onTestResult(
		test: unknown,
		result: {
			testFilePath: string;
			numPassingTests: number;
			numFailingTests: number;
			testExecError?: unknown;
			failureMessage?: string | null;
			console?: Array<{ message: string }>;
		},
	): void;
	onRunComplete(): void;
	getLastError(): Error | undefined;
}
export = SecretsReporter;
