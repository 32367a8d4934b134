#!/bin/sh
# Builds Jazzer.js's native addon (fuzzer-linux-x64.node) against the system's libFuzzer, for
# machines where the prebuilt one in @jazzer.js/fuzzer cannot load: it needs glibc 2.38, and
# Debian 12 has 2.36 ("GLIBC_2.38 not found" when `npm run fuzz:coverage` starts Jazzer.js).
#
# Needs: g++, Node's headers (/usr/include/node), node-addon-api (a dependency of
# @jazzer.js/fuzzer), libFuzzer from LLVM 16 (`apt-get install libclang-rt-16-dev`), and the
# addon's C++ sources of the installed Jazzer.js version, which its npm package does not ship:
#   git clone --depth 1 --branch v4.0.0 https://github.com/CodeIntelligenceTesting/jazzer.js SRC
#   tools/jazzer-addon/build.sh SRC
# Jazzer.js links its own fork of libFuzzer; the two files here stand in for what the fork adds
# (see their comments). The result replaces the prebuilt addon in node_modules (kept as .orig).
# It is put there as a new file, never written through the old one: a node_modules made with hard
# links (cp -al, pnpm's store) shares that file with other checkouts, which must keep theirs.
set -eu
src=${1:?usage: tools/jazzer-addon/build.sh JAZZER_JS_SOURCE_DIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
addon_dir="$root/node_modules/@jazzer.js/fuzzer/prebuilds"
libfuzzer=${LIBFUZZER:-/usr/lib/llvm-16/lib/clang/16/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a}
napi=$(dirname "$(node -p "require.resolve('node-addon-api/napi.h', { paths: ['$root/node_modules/@jazzer.js/fuzzer'] })")")
out=$(mktemp -d)/fuzzer-linux-x64.node
cd "$src/packages/fuzzer"
g++ -std=c++17 -O2 -fPIC -shared -DNAPI_VERSION=4 -DNAPI_CPP_EXCEPTIONS \
  -I"$here/include" -I/usr/include/node -I"$napi" \
  ./*.cpp shared/*.cpp "$here/death-callback.cpp" "$here/with-pc.cpp" \
  -Wl,--whole-archive "$libfuzzer" -Wl,--no-whole-archive -lpthread -o "$out"
[ -f "$addon_dir/fuzzer-linux-x64.node.orig" ] || cp "$addon_dir/fuzzer-linux-x64.node" "$addon_dir/fuzzer-linux-x64.node.orig"
cp "$out" "$addon_dir/fuzzer-linux-x64.node.new"
mv -f "$addon_dir/fuzzer-linux-x64.node.new" "$addon_dir/fuzzer-linux-x64.node"
echo "built $addon_dir/fuzzer-linux-x64.node"
