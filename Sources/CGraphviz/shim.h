// The parts of Graphviz's C API the renderer uses: libgvc (layout and rendering) and libcgraph (graphs, errors).
#ifndef CGRAPHVIZ_SHIM_H
#define CGRAPHVIZ_SHIM_H
#include <graphviz/gvc.h>
#include <graphviz/cgraph.h>
#include <graphviz/gvplugin.h>
#endif
