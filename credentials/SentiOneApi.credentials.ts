import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import {
	ANSWERS_OF_OTHER_SERVERS,
	API_KEY_HEADER,
	API_KEY_SHAPE,
	CREDENTIAL_ERROR_PREFIX,
	DEFAULT_BASE_URL,
	ENDPOINTS,
	HOSTED_KEY_PREFIX,
	JSON_MEDIA_TYPE,
	PATHS,
	resolveApiRoot,
	UNAUTHORIZED_TEXTS,
} from '../nodes/SentiOne/shared/contract';
import { anyTier, hourlyLimit } from '../nodes/SentiOne/shared/wording';

/** The request the test sends: the project list, which every API key's tier has. */
const TEST_ENDPOINT = ENDPOINTS.listProjects;

/**
 * The key is checked locally (missing, wrong shape) so those two 401 causes are named without
 * spending a request; the rules below name the other two from the server's answer.
 */
function checkApiKey(apiKey: unknown): string {
	const key = typeof apiKey === 'string' ? apiKey.trim() : '';
	if (key === '') {
		throw new Error(
			`${CREDENTIAL_ERROR_PREFIX} the API key is missing. Paste the key from SentiOne Listen → Profile → API into the credential.`,
		);
	}
	if (!API_KEY_SHAPE.test(key)) {
		throw new Error(
			`${CREDENTIAL_ERROR_PREFIX} the API key does not have the shape of a SentiOne key: it must start with a prefix such as ${HOSTED_KEY_PREFIX} followed by the key body. Copy the whole key again from Profile → API.`,
		);
	}
	return key;
}

const BASE_URL_HINT = `SentiOne's host only (for the hosted service ${DEFAULT_BASE_URL}; a pasted …/api/public/v2 is accepted too), the host of your own deployment for a self-hosted one.`;
const CHECK_BASE_URL = `Check the Base URL: ${BASE_URL_HINT}`;

export class SentiOneApi implements ICredentialType {
	// a literal (it equals CREDENTIAL_TYPE): n8n's lint reads the credential name from this line
	name = 'sentiOneApi';

	displayName = 'SentiOne API';

	documentationUrl = 'https://listen.help.sentione.com/reference/authentication';

	icon: Icon = { light: 'file:../icons/sentione.svg', dark: 'file:../icons/sentione.dark.svg' };

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'Your SentiOne Listen API key (Profile → API in the web app). It starts with a prefix such as SENTIONE-APIKEY-.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: DEFAULT_BASE_URL,
			placeholder: DEFAULT_BASE_URL,
			description:
				'The SentiOne host. Keep the default for the hosted service; enter your own host for a self-hosted deployment. A pasted API root (…/api/public/v2) is accepted too. Use http:// only for a local server.',
		},
	];

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const key = checkApiKey(credentials.apiKey);
		const options: IHttpRequestOptions = {
			...requestOptions,
			// the key goes only to the Base URL's origin: no request that carries it follows a redirect
			disableFollowRedirect: true,
			maxRedirects: 0,
			sendCredentialsOnCrossOriginRedirect: false,
			headers: {
				...(requestOptions.headers ?? {}),
				[API_KEY_HEADER]: key,
				'Content-Type': JSON_MEDIA_TYPE,
			},
		};
		if (!/^https?:\/\//i.test(options.url)) {
			const resolved = resolveApiRoot(credentials.baseUrl);
			if ('error' in resolved) {
				throw new Error(`${CREDENTIAL_ERROR_PREFIX} ${resolved.error}`);
			}
			options.baseURL = resolved.root;
		}
		return options;
	}

	/**
	 * The project list (the lowest tier; the projects budget). HTTP errors are taken as answers so the rules can say what
	 * the server answered (n8n's tester compares one field of the answer's body with one value per
	 * rule, in order; the status itself is not visible): SentiOne's own 401 texts (D-03), then the
	 * answers of a server that is not SentiOne's API (ANSWERS_OF_OTHER_SERVERS, contract/apiTexts.ts),
	 * then any answer that is not a project page.
	 */
	test: ICredentialTestRequest = {
		request: {
			url: PATHS.listProjects(),
			method: TEST_ENDPOINT.method,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: UNAUTHORIZED_TEXTS.notRecognised,
					message:
						'SentiOne does not recognise this API key (401). It may have been regenerated or revoked: copy it again from Profile → API in SentiOne Listen. A key of the hosted service does not work on a self-hosted deployment (and the reverse): check the Base URL too.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: UNAUTHORIZED_TEXTS.lacksTier(TEST_ENDPOINT.tier),
					message: `SentiOne recognises this API key but its account has no API tier for the project list (401). Ask your SentiOne account manager to enable API access (${anyTier()} tier).`,
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: UNAUTHORIZED_TEXTS.badShape,
					message: `This SentiOne deployment expects keys that start with ${HOSTED_KEY_PREFIX} (401). Copy the whole key again from Profile → API.`,
				},
			},
			...ANSWERS_OF_OTHER_SERVERS.map(([key, value, answered]) => ({
				type: 'responseSuccessBody' as const,
				properties: {
					key,
					value,
					message: `The server at the Base URL answered ${answered} ${CHECK_BASE_URL}`,
				},
			})),
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'data',
					value: undefined,
					// SentiOne's 429 text carries its reset time, so no rule can match it: named here
					message: `The server at the Base URL answered, but with neither SentiOne's project list nor a refusal the test knows. If it was SentiOne saying the key's hourly budget of ${hourlyLimit('listProjects')} project-list requests is used up (429), the test works again after the top of the hour; otherwise check the Base URL: ${BASE_URL_HINT}`,
				},
			},
		],
	};
}
