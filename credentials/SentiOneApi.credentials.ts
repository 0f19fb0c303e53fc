import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import {
	API_KEY_HEADER,
	API_KEY_SHAPE,
	CREDENTIAL_ERROR_PREFIX,
	DEFAULT_BASE_URL,
	HOSTED_KEY_PREFIX,
	JSON_MEDIA_TYPE,
	PATHS,
	resolveApiRoot,
} from '../nodes/SentiOne/shared/contract';

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
	 * GET /projects (Basic tier, 300/h). HTTP errors are taken as answers so the rules can name the
	 * cause of a refusal in words (D-03 texts) instead of a bare status; the last rule catches any
	 * answer that is not a project page (another 401 text, a 429, a wrong host, an HTML page).
	 */
	test: ICredentialTestRequest = {
		request: {
			url: PATHS.projects(),
			method: 'GET',
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: 'API key is not recognised.',
					message:
						'SentiOne does not recognise this API key (401). It may have been regenerated or revoked: copy it again from Profile → API in SentiOne Listen. A key of the hosted service does not work on a self-hosted deployment (and the reverse): check the Base URL too.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: 'API key does not have permission for this endpoint. It requires the Basic tier.',
					message:
						'SentiOne recognises this API key but its account has no API tier for the project list (401). Ask your SentiOne account manager to enable API access (Basic or Enterprise tier).',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: 'API key has an invalid format: it must start with the prefix SENTIONE-APIKEY-.',
					message:
						'This SentiOne deployment expects keys that start with SENTIONE-APIKEY- (401). Copy the whole key again from Profile → API.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'data',
					value: undefined,
					message:
						'SentiOne did not return the project list. If the key was refused (401) it is not recognised or lacks API access — copy it again from Profile → API; if the hourly budget of 300 project-list requests is used up (429), try again after the hour resets; otherwise the Base URL does not point at the SentiOne API (use the host only, e.g. https://sentione.com).',
				},
			},
		],
	};
}
