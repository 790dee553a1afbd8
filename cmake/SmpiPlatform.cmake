# SPDX-License-Identifier: BSD-3-Clause
# papcoll_smpi_platform(NODES CORES PREFIX): writes PREFIX.xml, a SimGrid
# cluster of NODES hosts with CORES cores each (InfiniBand-like links,
# faster loopback for processes of one node), and PREFIX.hosts listing every
# host CORES times (one line per process slot), for smpirun.
function(papcoll_smpi_platform nodes cores prefix)
  math(EXPR last "${nodes} - 1")
  file(WRITE ${prefix}.xml
"<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">
<platform version=\"4.1\">
  <!-- ${nodes} nodes x ${cores} cores: 1 us / 2.5 GB/s links (InfiniBand-DDR-like),
       intra-node loopback 0.1 us / 10 GB/s, 1 Gflop/s cores -->
  <cluster id=\"cluster\" prefix=\"node-\" suffix=\"\" radical=\"0-${last}\" core=\"${cores}\" speed=\"1Gf\"
           bw=\"2.5GBps\" lat=\"1us\" bb_bw=\"100GBps\" bb_lat=\"0us\"
           loopback_bw=\"10GBps\" loopback_lat=\"0.1us\"/>
</platform>
")
  set(hosts "")
  foreach(n RANGE ${last})
    foreach(c RANGE 1 ${cores})
      string(APPEND hosts "node-${n}\n")
    endforeach()
  endforeach()
  file(WRITE ${prefix}.hosts "${hosts}")
endfunction()
