/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: not shipped in the package */
// The n8n1 tier (jest.config.js): the end-to-end smoke set on the n8n 1.x line (scripts/n8n/lines.js
// LINES['1.x']: n8n 1.123.81 on Node 22). test/support/n8n/host.ts reads the line from here.
process.env.SENTIONE_N8N_LINE = '1.x';
