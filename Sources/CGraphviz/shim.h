// The parts of Graphviz's C API the renderer uses: libgvc (layout and rendering) and libcgraph (graphs, errors).
#ifndef CGRAPHVIZ_SHIM_H
#define CGRAPHVIZ_SHIM_H
#include <graphviz/gvc.h>
#include <graphviz/cgraph.h>
#include <graphviz/gvplugin.h>

// Exported by libgvc but declared only in its private headers. When the plugin configuration is missing,
// gvContext() returns before choosing a text-layout plugin and before making its font dictionary (without which
// any label crashes layout); after adding the plugins with gvAddLibrary the renderer does both itself.
extern int gvtextlayout_select(GVC_t *gvc);
extern Dt_t *textfont_dict_open(GVC_t *gvc);
#endif
