# shellcheck shell=bash
# Helpers shared by scripts/kafka and scripts/lib/clickhouse-cluster (sourced, not run).
#
# The sourcing script defines die() and note() first, and repo_root.

# --- ports -------------------------------------------------------------------

port_in_use() { # port
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Where fresh ports come from: below the kernel's ephemeral range, so a port we
# give up on stop (e.g. a broker restart) is not taken meanwhile as the local
# port of some outgoing connection.
port_pool() { # prints "low high"
  local lo=32768
  if [[ -r /proc/sys/net/ipv4/ip_local_port_range ]]; then
    read -r lo _ </proc/sys/net/ipv4/ip_local_port_range || lo=32768
  fi
  if ((lo > 21000)); then
    echo "20000 $((lo - 1))"
  else
    echo "20000 30000"
  fi
}

# Prints N distinct free ports on 127.0.0.1, one per line. A port is reserved
# (an mkdir under a per-user dir) for two minutes, so scripts choosing ports at
# the same time (scripts/test starts several servers in parallel) do not pick
# the same one before either has bound it.
reserve_free_ports() { # n
  local n=$1 found=0 tries=0 lo hi p
  read -r lo hi < <(port_pool)
  local rdir
  rdir=${TMPDIR:-/tmp}/sluice-ports-$(id -u)
  mkdir -p "$rdir"
  # forget reservations older than two minutes
  find "$rdir" -mindepth 1 -maxdepth 1 -type d -mmin +2 -exec rmdir {} + 2>/dev/null || true
  p=$((lo + (RANDOM * 32768 + RANDOM) % (hi - lo + 1)))
  while ((found < n && tries < 5000)); do
    tries=$((tries + 1))
    p=$((p + 1))
    ((p <= hi)) || p=$lo
    if ! port_in_use "$p" && mkdir "$rdir/$p" 2>/dev/null; then
      echo "$p"
      found=$((found + 1))
    fi
  done
  ((found == n)) || die "could not find $n free ports on 127.0.0.1 in $lo-$hi"
}

# --- processes ---------------------------------------------------------------

# True when pid is alive and its command line contains marker (guards against
# pid reuse: a pid file may outlive its process after kill -9).
pid_matches() { # pid marker
  [[ -n $1 ]] && kill -0 "$1" 2>/dev/null || return 1
  if [[ -r /proc/$1/cmdline ]]; then
    tr '\0' ' ' <"/proc/$1/cmdline" | grep -qF -- "$2" || return 1
  fi
}

# Waits until pid is gone, at most timeout seconds; 0 when it is gone.
wait_gone() { # pid timeout
  local deadline=$((SECONDS + $2))
  while kill -0 "$1" 2>/dev/null; do
    ((SECONDS < deadline)) || return 1
    sleep 0.1
  done
}

# SIGTERM, then SIGKILL after timeout seconds; 0 when the process is gone.
terminate() { # pid timeout name
  kill -TERM "$1" 2>/dev/null || true
  if ! wait_gone "$1" "$2"; then
    note "$3 (pid $1) still alive after ${2}s; sending KILL"
    kill -KILL "$1" 2>/dev/null || true
    wait_gone "$1" 10
  fi
}

# Value of NAME in an env file of ours (NAME=value per line).
env_file_value() { # file name
  [[ -f $1 ]] || return 0
  sed -n "s/^$2=//p" "$1" | tail -n 1
}

# --- jars from Maven Central -------------------------------------------------

# Makes sure lib_dir holds the runtime class path of the given dependencies,
# resolved once with Maven (through ~/.m2, so later resolutions need no
# network) and copied there. Each dependency is groupId:artifactId:version,
# optionally followed by !groupId:artifactId exclusions.
ensure_maven_libs() { # lib_dir dependency...
  local lib_dir=$1
  shift
  [[ -f $lib_dir/.complete ]] && return 0
  command -v mvn >/dev/null 2>&1 || die "Maven (mvn) is needed once to fetch the jars into $lib_dir"
  mkdir -p "$(dirname "$lib_dir")"
  local lock_fd
  exec {lock_fd}>"$lib_dir.lock"
  flock "$lock_fd"
  if [[ -f $lib_dir/.complete ]]; then
    exec {lock_fd}>&-
    return 0
  fi
  local work
  work=$(mktemp -d "$lib_dir.tmp.XXXXXX")
  {
    echo '<project xmlns="http://maven.apache.org/POM/4.0.0">'
    echo '  <modelVersion>4.0.0</modelVersion>'
    echo '  <groupId>dev.sluice.local</groupId><artifactId>runtime-libs</artifactId><version>1</version>'
    echo '  <packaging>pom</packaging>'
    echo '  <dependencies>'
    local dep coords excl g a v
    for dep in "$@"; do
      coords=${dep%%!*}
      IFS=: read -r g a v <<<"$coords"
      echo "    <dependency><groupId>$g</groupId><artifactId>$a</artifactId><version>$v</version>"
      if [[ $dep == *'!'* ]]; then
        echo '      <exclusions>'
        local rest=${dep#*!}
        while IFS= read -r excl; do
          [[ -n $excl ]] || continue
          echo "        <exclusion><groupId>${excl%%:*}</groupId><artifactId>${excl#*:}</artifactId></exclusion>"
        done < <(tr '!' '\n' <<<"$rest")
        echo '      </exclusions>'
      fi
      echo '    </dependency>'
    done
    echo '  </dependencies>'
    echo '</project>'
  } >"$work/pom.xml"
  note "resolving $(basename "$lib_dir") with Maven (once; cached in $lib_dir)"
  local goal=org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies
  local -a args=(-B -q -Dstyle.color=never -f "$work/pom.xml" "$goal"
    -DoutputDirectory="$work/jars" -DincludeScope=runtime)
  # offline first: when ~/.m2 has everything this takes no network at all
  if ! mvn -o "${args[@]}" >"$work/mvn.log" 2>&1; then
    if ! mvn "${args[@]}" >"$work/mvn.log" 2>&1; then
      tail -n 30 "$work/mvn.log" >&2
      rm -rf "$work"
      exec {lock_fd}>&-
      die "Maven could not resolve: $*"
    fi
  fi
  rm -rf "$lib_dir"
  mv "$work/jars" "$lib_dir"
  printf '%s\n' "$@" >"$lib_dir/.complete"
  rm -rf "$work"
  exec {lock_fd}>&-
}
