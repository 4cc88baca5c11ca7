# testdata/gen/summary/summarise.awk: awk -f summarise.awk DUMP (a Go debug=2 dump)
# Groups a Go debug=2 dump by state and function names (top 3 frames) and
# prints the groups as a person summarises them: count, state, arrow lines.
/^goroutine [0-9]+ / {
  h=$0; sub(/^goroutine [0-9]+ (gp=[^ ]+ m=[^ ]+ (mp=[^ ]+ )?)?\[/, "", h); sub(/\]:$/, "", h)
  st=h; n=0; key=""; inG=1; next
}
inG && /^$/ { k=st "\t" key; if (!(k in cnt)) order[++no]=k; cnt[k]++; inG=0; next }
inG && /^[^\t]/ && !/^created by/ { if (n<3) { f=$0; p=0; for (i=length(f); i>0; i--) if (substr(f,i,1)=="(") { p=i; break }; if (p) f=substr(f,1,p-1); key=key (n?"\t":"") f; n++ } }
END {
  if (inG) { k=st "\t" key; if (!(k in cnt)) order[++no]=k; cnt[k]++ }
  for (i=1;i<=no;i++) { k=order[i]; split(k, a, "\t"); printf "%d goroutines [%s]:\n", cnt[k], a[1]; for (j=2;j in a;j++) printf "  -> %s\n", a[j]; print "" }
}
