#ifndef CLIBYAML_VENDORED_H
#define CLIBYAML_VENDORED_H
// libyaml, vendored (upstream/, unmodified; scripts/update_libyaml.py) for
// Apple platforms, where no system libyaml is there to link: every function
// is renamed oamc_yaml_... by the prefix header, so this copy never meets
// another libyaml's symbols in one binary.
#include "CLibYAMLVendoredPrefix.h"
#include "../upstream/include/yaml.h"
#endif
