#pragma once
#include <QString>

namespace rankscope {

// The folder of bundled demo traces: installed beside the program
// (../share/rankscope/demo), else the source tree's resources/demo.
QString demoTraceDirectory();

} // namespace rankscope
