// Command grpc is the program of testdata/libs/go-grpc: a grpc-go server
// whose handlers never answer and, in the same process, a client whose calls
// wait for them with no deadline.
//
//	grpc -addr-file F
//
// What it runs, all on 127.0.0.1:
//
//   - a grpc.Server with one hand-written service, dumpdiff.Slow (a
//     grpc.ServiceDesc, messages from google.golang.org/protobuf's
//     wrapperspb, the default proto codec): the unary method Get
//     (main.(*slowServer).Get) and the server-streaming method Watch
//     (main.(*slowServer).Watch) both wait for their call's context to end,
//     which never happens.
//   - a grpc.ClientConn to it (grpc.NewClient, passthrough resolver,
//     insecure credentials). main.runCalls starts 15 main.call goroutines,
//     each a unary Get with no deadline, waiting for the reply; main.watch is
//     one server-streaming Watch call waiting in RecvMsg for the first
//     message.
//   - net/http/pprof on http.DefaultServeMux, served by main.
//
// The address of the pprof server is written to F once every goroutine is
// started.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// slowServer is the service's implementation: nothing ever answers.
type slowServer struct{}

// Get waits for its call to end (the client never cancels).
func (s *slowServer) Get(ctx context.Context, req *wrapperspb.StringValue) (*wrapperspb.StringValue, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// Watch would stream updates of req; it waits for its call to end first.
func (s *slowServer) Watch(req *wrapperspb.StringValue, stream grpc.ServerStream) error {
	<-stream.Context().Done()
	return stream.Context().Err()
}

// slowService is what protoc-gen-go-grpc would generate for
//
//	service Slow {
//	  rpc Get(google.protobuf.StringValue) returns (google.protobuf.StringValue);
//	  rpc Watch(google.protobuf.StringValue) returns (stream google.protobuf.StringValue);
//	}
var slowService = grpc.ServiceDesc{
	ServiceName: "dumpdiff.Slow",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Get",
		Handler: func(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
			in := new(wrapperspb.StringValue)
			if err := dec(in); err != nil {
				return nil, err
			}
			return srv.(*slowServer).Get(ctx, in)
		},
	}},
	Streams: []grpc.StreamDesc{{
		StreamName: "Watch",
		Handler: func(srv any, stream grpc.ServerStream) error {
			in := new(wrapperspb.StringValue)
			if err := stream.RecvMsg(in); err != nil {
				return err
			}
			return srv.(*slowServer).Watch(in, stream)
		},
		ServerStreams: true,
	}},
}

// call does one unary Get and waits for its reply, with no deadline.
func call(cc *grpc.ClientConn, key string) {
	out := new(wrapperspb.StringValue)
	if err := cc.Invoke(context.Background(), "/dumpdiff.Slow/Get", wrapperspb.String(key), out); err != nil {
		log.Printf("call %s: %v", key, err)
	}
}

func runCalls(cc *grpc.ClientConn, n int) {
	for i := 0; i < n; i++ {
		go call(cc, fmt.Sprintf("key-%d", i))
	}
}

// watch opens the server-streaming Watch and reads its messages.
func watch(cc *grpc.ClientConn, key string) {
	desc := &slowService.Streams[0]
	stream, err := cc.NewStream(context.Background(), desc, "/dumpdiff.Slow/Watch")
	if err != nil {
		log.Printf("watch: %v", err)
		return
	}
	if err := stream.SendMsg(wrapperspb.String(key)); err != nil {
		log.Printf("watch: %v", err)
		return
	}
	if err := stream.CloseSend(); err != nil {
		log.Printf("watch: %v", err)
		return
	}
	for {
		out := new(wrapperspb.StringValue)
		if err := stream.RecvMsg(out); err != nil {
			log.Printf("watch: %v", err)
			return
		}
	}
}

func main() {
	addrFile := flag.String("addr-file", "", "write the pprof address to this file")
	flag.Parse()
	if *addrFile == "" {
		log.Fatal("usage: grpc -addr-file FILE")
	}

	gln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	srv := grpc.NewServer()
	srv.RegisterService(&slowService, &slowServer{})
	go srv.Serve(gln)

	cc, err := grpc.NewClient("passthrough:///"+gln.Addr().String(),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		log.Fatal(err)
	}
	runCalls(cc, 15)
	go watch(cc, "config")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*addrFile, []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.Serve(ln, nil))
}
