#ifndef CLIBYAML_SHIM_H
#define CLIBYAML_SHIM_H
// The system libyaml (Debian: libyaml-dev), found through pkg-config `yaml-0.1`.
#include <yaml.h>
#endif
