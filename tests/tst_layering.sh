#!/usr/bin/env bash
# The layers' arrows point down only: app -> widgets -> model, and inside the
# model analysis -> stats -> session -> load -> core. Fails naming every include that
# points the wrong way.
set -uo pipefail
root="${1:-$(dirname "$0")/..}"
cd "$root" || exit 2
status=0
# forbid FOLDER PATTERN WHY: no file under FOLDER includes a header matching PATTERN.
forbid() {
  local hits
  hits=$(grep -rnE "#include [<\"]($2)" "$1" --include='*.h' --include='*.cpp' || true)
  if [ -n "$hits" ]; then
    echo "layering: $1 must not include $2 ($3):"
    echo "$hits"
    status=1
  fi
}
forbid model 'QtGui|QtWidgets|QtCharts|QtSvg|QPainter|QColor|QWidget|QImage|timeline/|panels/|details/|theme/' 'the model knows no Gui'
forbid model/core 'load/|session/|stats/|analysis/' 'core is the bottom of the model'
forbid model/load 'session/|stats/|analysis/' 'loaders build reports, not sessions'
forbid model/session 'stats/|analysis/' 'statistics sit above the session'
forbid model/stats 'analysis/' 'the workspace shares the statistics, not the other way'
forbid widgets 'mainwindow|sessionloadjob|recentfiles|clicommands' 'widgets know nothing of the application'
[ $status -eq 0 ] && echo "layering: all includes point down"
exit $status
