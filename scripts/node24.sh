# Sourced by ./dev and .ci/run: puts a Node.js >= 24 first on PATH.
# n8n 2.x and its toolchain need Node 24. When the machine's node is older, Node 24 is installed
# from the npm registry (the `node` package) into .tools/node24 of this checkout — no download
# from nodejs.org, no root, nothing outside the checkout.
_sentione_root=$(cd "$(dirname "${0}")" && pwd)
[ -f "$_sentione_root/package.json" ] || _sentione_root=$(pwd)
_sentione_node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(_sentione_node_major)" -lt 24 ]; then
	_sentione_tools="$_sentione_root/.tools/node24"
	if [ ! -x "$_sentione_tools/node_modules/node/bin/node" ]; then
		echo "dev: Node $(node -v 2>/dev/null || echo none) is too old; installing Node 24 into .tools/node24 ..." >&2
		mkdir -p "$_sentione_tools"
		[ -f "$_sentione_tools/package.json" ] || echo '{"name":"node24-holder","private":true}' > "$_sentione_tools/package.json"
		(cd "$_sentione_tools" && npm_config_yes=true npm install --no-audit --no-fund node@24 >&2)
	fi
	PATH="$_sentione_tools/node_modules/node/bin:$PATH"
	export PATH
fi
if [ "$(_sentione_node_major)" -lt 24 ]; then
	echo "dev: could not get Node 24 on PATH" >&2
	exit 1
fi
unset _sentione_tools
